/**
 * `/cours/{slug}`: one course (from app/content/courses.ts), its upcoming
 * sessions with the places left (a series as one choice with all its dates), the registration form, and "Par
 * téléphone" with the owner's telephone one tap away (`PhoneReveal`); kept in the
 * render cache until a seat or a session changes, or the first session
 * starts (`?seance={id}` chooses a date in the form, one entry each). JSON-LD `Course` with its
 * `CourseInstance`s. An unknown slug answers the site's 404.
 *
 * `POST /cours/{slug}`: a registration, through the public-action guards
 * (`booking`: body limit, rate limit per address, honeypot). Answers:
 * 303 to `/cours/inscription/{token}` (confirmed or on the waiting list);
 * 400 with the errors beside the fields (how it pays checked against the
 * chosen date: the choice « au choix », the postal address « sur facture »); 409 when fewer seats are left than
 * asked for, the telephone is already registered for that session, or the
 * session closed meanwhile; 413 and 429 as the contact form, and 429 with its French message when the client
 * address has taken its seats of the day (app/courses/limits.server.ts; its mails to visitors are capped too);
 * 503 in French when the database does not answer or is busy, 500 (the site's error page) for a bug (decision
 * 071). Spam is answered like a success with no registration (303 to `/cours`).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { CheckList } from "~/components/check-list";
import { PhoneReveal, usePhoneChannels } from "~/contact/phone-reveal";
import { CourseFacts } from "~/components/course-facts";
import { courseBookingInfo } from "~/content/courses";
import { UnavailableNote } from "~/contact/unavailable-page";
import { themeClasses } from "~/components/theme";
import { BookingForm } from "~/courses/booking-form";
import { registerForSession } from "~/courses/register.server";
import { publicLimits } from "~/courses/limits.server";
import { registrationPath } from "~/courses/links";
import { courseStructuredData, publicChoice, upcomingChoices } from "~/courses/public.server";
import { BOOKING_BODY_LIMIT_BYTES, BOOKING_HONEYPOT_FIELD, bookingMessages, bookingSchema } from "~/courses/schema";
import { courseBySlug, listSessions } from "~/courses/sessions.server";
import { SessionList } from "~/courses/session-list";
import { guardPublicAction } from "~/guards/public-action.server";
import { loaderMeta } from "~/seo/meta";
import { notFound, pageMeta } from "~/seo/page-meta.server";
import { cn } from "~/utils/cn";
import { retryLaterOrThrow, unlessDatabaseDown } from "~/utils/database-down.server";
import { unavailableWords } from "~/utils/unavailable";
import type { Route } from "./+types/course";
import { cachedPage } from "~/utils/render-cache";
import {
  settingsContext,
  dbContext,
  loggerContext,
  wakeOutboxContext,
  renderHintsContext,
  clockContext,
} from "~/context.server";

function findCourse(context: Route.LoaderArgs["context"], request: Request, slug: string) {
  const course = courseBySlug(slug);
  if (!course) {
    throw notFound(context, request, {
      title: "Page introuvable",
      description: "Cette page n’existe pas ou n’existe plus.",
    });
  }
  return course;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const course = findCourse(context, request, params.slug);
  const now = context.get(clockContext).now();
  const read = await unlessDatabaseDown(context, () =>
    upcomingChoices(context.get(dbContext), now, course.id, context.get(renderHintsContext)),
  );
  // The database down: the page answers 503 with the French notice in place of the dates, and a form
  // posted meanwhile comes back filled in (its chosen date kept); app/utils/database-down.server.ts.
  const choices = read.down ? [] : read.value;
  const rows = choices.map((choice) => choice.row);
  const seance = new URL(request.url).searchParams.get("seance");
  // `?seance=` naming no upcoming session of this course, or naming one in another spelling (`03`, `3.0`,
  // `+3`): the bare page. The render cache learns the names from the bare page and answers any other value
  // with it, without a render (app/utils/render-cache.ts); rendered anyway, such an answer is not kept.
  const sessionNames = rows.map((row) => String(row.id));
  context.get(renderHintsContext)?.queryChoices?.("seance", sessionNames);
  const selected = seance !== null && sessionNames.includes(seance) ? Number(seance) : undefined;
  if (seance !== null && selected === undefined) context.get(renderHintsContext)?.noStore();
  const pageUrl = `${context.get(settingsContext).SITE_URL}/cours/${course.id}`;
  return data(
    {
      course: {
        id: course.id,
        title: course.title,
        subtitle: course.subtitle,
        description: course.description,
        topics: course.topics,
        duration: course.duration,
        level: course.level,
        groupSize: course.groupSize,
        color: course.color,
      },
      sessions: choices.map((choice) => publicChoice(choice, now)),
      selected,
      paymentWords: courseBookingInfo.payment,
      unavailable: read.down,
      meta: pageMeta(context, request, {
        title: `${course.title} : dates et inscription`,
        description: `${course.subtitle}. Les prochaines dates, les places restantes et l’inscription en ligne.`,
        structuredData: courseStructuredData(course, rows, now, pageUrl),
      }),
    },
    read.down ? { status: 503 } : undefined,
  );
}

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: ["courses"], searchParams: ["seance"] });

export async function action({ request, context, params }: Route.ActionArgs) {
  const course = findCourse(context, request, params.slug);
  const guard = await guardPublicAction(request, context, {
    name: "booking",
    bodyLimitBytes: BOOKING_BODY_LIMIT_BYTES,
    honeypotField: BOOKING_HONEYPOT_FIELD,
  });
  if (guard.outcome === "too-large") {
    return data({ result: { status: "error" as const, error: { "": [bookingMessages.tooLarge] } } }, { status: 413 });
  }
  const submission = parseWithZod(guard.formData, { schema: bookingSchema });
  if (guard.outcome === "rate-limited") {
    return data({ result: submission.reply({ formErrors: [bookingMessages.rateLimited] }) }, { status: 429 });
  }
  if (guard.outcome === "spam") throw redirect("/cours", 303);
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });

  let result;
  try {
    // Read in the same try as the write: a database that does not answer is a 503 in French, never a 500.
    const sessions = await listSessions(context.get(dbContext), { courseId: course.id });
    if (!sessions.some((session) => session.id === submission.value.sessionId)) {
      return data(
        { result: submission.reply({ fieldErrors: { sessionId: [bookingMessages.session] } }) },
        { status: 400 },
      );
    }
    result = await registerForSession(context.get(dbContext), submission.value, {
      siteUrl: context.get(settingsContext).SITE_URL,
      ...(await publicLimits(context, { withClient: true })),
    });
  } catch (error) {
    // 503 only when a retry can help (the database down or busy, decision 071); a bug is thrown on: 500.
    const why = await retryLaterOrThrow(context, error, "booking: could not store the registration");
    const message = why === "down" ? unavailableWords.form : bookingMessages.saveError;
    return data({ result: submission.reply({ formErrors: [message] }) }, { status: 503 });
  }
  if (result.outcome === "too-few-seats") {
    return data({ result: submission.reply({ fieldErrors: { seats: [bookingMessages.lastSeat] } }) }, { status: 409 });
  }
  if (result.outcome === "already-registered") {
    return data(
      {
        result: submission.reply({
          fieldErrors: {
            phone: [result.series ? bookingMessages.alreadyRegisteredSeries : bookingMessages.alreadyRegistered],
          },
        }),
      },
      { status: 409 },
    );
  }
  if (result.outcome === "address-limit") {
    context.get(loggerContext).warn("booking: a client address has taken its seats of the day, registration refused");
    return data({ result: submission.reply({ formErrors: [bookingMessages.addressLimit] }) }, { status: 429 });
  }
  if (result.outcome === "closed") {
    return data(
      { result: submission.reply({ fieldErrors: { sessionId: [bookingMessages.closed] } }) },
      { status: 409 },
    );
  }
  if (result.outcome === "payment") {
    return data({ result: submission.reply({ fieldErrors: result.errors }) }, { status: 400 });
  }
  context
    .get(loggerContext)
    .info(
      { registrationId: result.registrationId, outcome: result.outcome },
      "booking: registration stored, mails queued",
    );
  context.get(wakeOutboxContext)();
  throw redirect(registrationPath(result.token), 303);
}

export default function CoursePage() {
  const { course, sessions, selected, paymentWords, unavailable } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const theme = themeClasses[course.color];
  const path = `/cours/${course.id}`;
  const channels = usePhoneChannels();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <p>
        <a href="/cours" className="text-lg">
          ← Tous les cours
        </a>
      </p>
      <h1 className={cn("mt-4 text-4xl font-bold", theme.strongText)}>{course.title}</h1>
      <p className="mt-2 text-2xl font-semibold">{course.subtitle}</p>
      <p className="mt-4 text-xl text-muted">{course.description}</p>
      <h2 className="mt-8 text-2xl font-bold">Au programme</h2>
      <CheckList items={course.topics} markClassName={theme.text} />
      <CourseFacts course={course} className={cn("mt-6 text-lg", theme.softBg)} />

      {unavailable ? (
        <UnavailableNote />
      ) : (
        <>
          <h2 className="mt-12 text-3xl font-bold" id="dates">
            Prochaines dates
          </h2>
          <SessionList sessions={sessions} showCourse={false} />
        </>
      )}

      {/* While the database does not answer, a posted form comes back filled in, to be sent again later. */}
      {sessions.length > 0 || (unavailable && answer) ? (
        <section aria-labelledby="inscription" className="mt-12">
          <h2 id="inscription" className="mb-6 text-3xl font-bold">
            Inscription
          </h2>
          <BookingForm
            action={path}
            sessions={sessions}
            selected={selected}
            lastResult={answer?.result}
            pending={navigation.state !== "idle" && navigation.formAction === path}
            paymentWords={paymentWords}
          />
        </section>
      ) : null}

      <section aria-labelledby="par-telephone" className="mt-12 rounded-2xl border-2 border-line bg-white p-5">
        <h2 id="par-telephone" className="text-2xl font-bold">
          Par téléphone
        </h2>
        <p className="mt-2 text-xl">
          Vous préférez vous inscrire par téléphone, ou vous avez une question&nbsp;? Appelez-moi.
        </p>
        {channels ? <PhoneReveal channels={channels} idPrefix="cours" className="mt-4" /> : null}
      </section>
    </div>
  );
}
