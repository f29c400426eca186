/**
 * `/r/{token}`: the short link of an SMS reminder (decision 051),
 * « Toujours partant·e ? »: the course, the next date and the place, the
 * code word, and two buttons that post (a GET changes nothing):
 * « Oui, je viens » (nothing to change: a thank-you) and « Je ne peux plus
 * venir », which cancels the registration and frees its seat once
 * (`cancelByLinkIntent`, as the registration's page does; the freed seat is
 * then offered to the first who waits, decision 049). The token is a
 * registration's own (purpose `course-registration`). Works without
 * JavaScript. `noindex`, `no-store`. An unknown or expired link answers 404
 * in French.
 */
import { data, Form, useActionData, useLoaderData } from "react-router";
import { Button } from "~/components/ui/button";
import { linkIntent } from "~/courses/link-action.server";
import { registrationPath, shortReminderPath } from "~/courses/links";
import { cancelByLinkIntent } from "~/courses/registration-actions.server";
import { findRegistrationByToken } from "~/courses/registrations.server";
import { BOOKING_HONEYPOT_FIELD } from "~/courses/schema";
import { courseBySlug } from "~/courses/sessions.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import { needsDatabase } from "~/utils/database-down.server";
import { formatDateTime } from "~/utils/format";
import { clockContext, dbContext } from "~/context.server";
import type { Route } from "./+types/course-reminder";
import { AnswerStatus, InvalidLinkPage, LINK_PAGE_CLASS } from "~/courses/link-page";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const meta = pageMeta(context, request, {
    title: "Toujours partant·e ?",
    description: "Le rappel de votre cours en petit groupe.",
    noindex: true,
  });
  const now = context.get(clockContext).now();
  const found = await needsDatabase(context, () => findRegistrationByToken(context.get(dbContext), params.token, now));
  if (!found) return data({ meta, reminder: null }, { status: 404 });
  const { registration, session, lessons } = found;
  const next = lessons.find((lesson) => new Date(lesson.startsAt).getTime() > now.getTime()) ?? lessons[0] ?? session;
  return {
    meta,
    reminder: {
      cancelled: registration.status === "cancelled",
      courseTitle: courseBySlug(session.courseId)?.title ?? session.courseId,
      when: formatDateTime(next.startsAt),
      place: `${next.placeName}\n${next.placeAddress}`,
      codeWord: registration.codeWord,
      path: shortReminderPath(params.token),
      pagePath: registrationPath(params.token),
    },
  };
}

export const meta = loaderMeta;

export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const guarded = await linkIntent(request, context);
  if ("refused" in guarded) return guarded.refused;
  if (guarded.intent === "cancel") return cancelByLinkIntent(context, params.token);
  if (guarded.intent === "yes") return { message: "Merci, c’est noté. À bientôt au cours !" };
  return data({ message: "Rien n’a été changé." }, { status: 400 });
}

export default function ReminderPage() {
  const { reminder } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  if (!reminder) {
    return <InvalidLinkPage gone="le cours a déjà eu lieu" />;
  }
  return (
    <div className={LINK_PAGE_CLASS}>
      <h1 className="text-4xl font-bold text-primary">
        {reminder.cancelled ? "Votre inscription est annulée" : "Toujours partant·e\u00a0?"}
      </h1>
      <AnswerStatus message={answer?.message} />
      <dl className="mt-8 divide-y-2 divide-gray-100 rounded-2xl border-2 border-line bg-white text-lg">
        {[
          ["Cours", reminder.courseTitle],
          ["Date", reminder.when],
          ["Lieu", reminder.place],
          ...(reminder.codeWord ? [["Mot code", reminder.codeWord]] : []),
        ].map(([label, value]) => (
          <div key={label} className="grid gap-1 p-4 sm:grid-cols-[10rem_1fr]">
            <dt className="font-semibold">{label}</dt>
            <dd className="break-words whitespace-pre-line first-letter:uppercase">{value}</dd>
          </div>
        ))}
      </dl>
      {reminder.cancelled ? null : (
        <div className="mt-8 flex flex-wrap gap-3">
          {[
            { intent: "yes", label: "Oui, je viens", primary: true },
            { intent: "cancel", label: "Je ne peux plus venir", primary: false },
          ].map(({ intent, label, primary }) => (
            <Form key={intent} method="post" action={reminder.path}>
              <input type="hidden" name="intent" value={intent} />
              <input type="hidden" name={BOOKING_HONEYPOT_FIELD} value="" />
              <Button type="submit" size="large" variant={primary ? "primary" : "outline"}>
                {label}
              </Button>
            </Form>
          ))}
        </div>
      )}
      <p className="mt-8 text-lg">
        Le mot code est celui que je dis quand je vous appelle. Tout le détail de votre inscription&nbsp;:{" "}
        <a href={reminder.pagePath}>votre page d’inscription</a>.
      </p>
    </div>
  );
}
