/**
 * `/groupe/{token}`: a closed group's own page (app/quotes/group.server.ts),
 * mailed to the organisation's contact person once the owner made the
 * session of an accepted quote: the course, the date in words, the place,
 * and the list of participants to fill (`ParticipantsForm`, a plain form:
 * it works without JavaScript), by the organisation here or by the owner
 * in the desk. `noindex`, `no-store`, never in the render cache.
 *
 * `POST` (`intent=participants`), through the same guards as
 * `/cours/inscription/{token}` (`linkIntent`: rate limit, body limit,
 * honeypot; 405 for another method): stores the names. An unknown or
 * expired link, or a cancelled session, answers in French (404, 409).
 */
import { data, useActionData, useLoaderData } from "react-router";
import { clockContext, dbContext } from "~/context.server";
import { PhoneReveal, usePhoneChannels } from "~/contact/phone-reveal";
import { linkIntent } from "~/courses/link-action.server";
import { sessionEnd } from "~/courses/sessions.server";
import { groupByToken, nameFieldCount, namesOf, saveParticipants } from "~/quotes/group.server";
import { ParticipantsForm } from "~/quotes/participants-form";
import { quoteCourseTitle } from "~/quotes/quotes.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import { needsDatabase } from "~/utils/database-down.server";
import { formatDateTimeRange } from "~/utils/format";
import type { Route } from "./+types/group-list";
import { AnswerStatus, InvalidLinkPage, LINK_PAGE_CLASS } from "~/courses/link-page";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const meta = pageMeta(context, request, {
    title: "Votre groupe",
    description: "La séance de votre groupe et la liste des participants.",
    noindex: true,
  });
  const now = context.get(clockContext).now();
  const found = await needsDatabase(context, () => groupByToken(context.get(dbContext), params.token, now));
  if (!found) return data({ meta, group: null }, { status: 404 });
  const { quote, session } = found;
  return {
    meta,
    group: {
      organisation: quote.clientName,
      course: quoteCourseTitle(quote),
      when: formatDateTimeRange(session.startsAt, sessionEnd(session)),
      place: `${session.placeName}, ${session.placeAddress}`,
      access: session.placeAccess,
      cancelled: session.cancelledAt !== null,
      names: quote.participants,
      fields: nameFieldCount(quote),
    },
  };
}

export const meta = loaderMeta;

export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const guarded = await linkIntent(request, context, { bodyLimitBytes: 16 * 1024 });
  if ("refused" in guarded) return guarded.refused;
  if (guarded.intent !== "participants" || !guarded.form)
    return data({ message: "Rien n’a été changé." }, { status: 400 });
  const db = context.get(dbContext);
  const found = await groupByToken(db, params.token, context.get(clockContext).now());
  if (!found) return data({ message: "Ce lien n’est plus valable : rien n’a été changé." }, { status: 404 });
  if (found.session.cancelledAt)
    return data({ message: "Cette séance est annulée : la liste ne change plus." }, { status: 409 });
  const names = namesOf(guarded.form);
  await saveParticipants(db, found.quote.id, names);
  return {
    message: `La liste est enregistrée : ${names.length} participant${names.length > 1 ? "s" : ""}. Vous pouvez la corriger ici jusqu’au jour de la séance.`,
  };
}

export default function GroupPage() {
  const { group } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const channels = usePhoneChannels();
  if (!group) {
    return (
      <InvalidLinkPage
        gone="la séance a eu lieu il y a plus d’une semaine"
        about="sur votre groupe"
        phoneIdPrefix="lien"
      />
    );
  }
  return (
    <div className={LINK_PAGE_CLASS}>
      <h1 className="text-4xl font-bold">La séance de votre groupe</h1>
      <AnswerStatus message={answer?.message} />
      <dl className="mt-8 divide-y-2 divide-gray-100 rounded-2xl border-2 border-line bg-white text-lg">
        {[
          ["Pour", group.organisation],
          ["Cours", group.course],
          ["Date", group.cancelled ? `${group.when} (annulée)` : group.when],
          ["Lieu", group.place],
          ...(group.access ? [["Accès", group.access]] : []),
        ].map(([label, value]) => (
          <div key={label} className="grid gap-1 p-4 sm:grid-cols-[10rem_1fr]">
            <dt className="font-semibold">{label}</dt>
            <dd className="break-words whitespace-pre-line first-letter:uppercase">{value}</dd>
          </div>
        ))}
      </dl>
      {group.cancelled ? (
        <p className="mt-8 text-xl">Cette séance est annulée. Pour en convenir d’une autre, appelez-moi.</p>
      ) : (
        <section aria-labelledby="participants" className="mt-10">
          <h2 id="participants" className="text-2xl font-bold">
            Les participants ({group.names.length})
          </h2>
          <p className="mt-2 text-xl">
            Inscrivez le prénom et le nom de chaque personne qui viendra. Vous pouvez revenir sur cette page et corriger
            la liste jusqu’au jour de la séance.
          </p>
          <ParticipantsForm names={group.names} fields={group.fields} />
        </section>
      )}
      {channels ? <PhoneReveal channels={channels} idPrefix="groupe" className="mt-10" /> : null}
    </div>
  );
}
