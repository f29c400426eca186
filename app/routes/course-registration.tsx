/**
 * `/cours/inscription/{token}`: a registration opened by its link (after
 * the form, and from the mails): confirmed, or on the waiting list with its
 * position, or cancelled; the date in words, the place and its access
 * notes, what to bring, the price and how this registration pays (by
 * invoice: the address it goes to), "Ajouter à mon agenda"
 * (the `.ics`), "Gardez ou imprimez cette page" with "Imprimer" and the
 * owner's telephone (`PhoneReveal`: one tap shows it as a `tel:` link), and
 * "Annuler mon inscription", a link (`?annuler`) that asks once: its
 * "Oui, annuler" is a button that posts (mail scanners that follow links
 * change nothing), with until when it may (« Annulation possible jusqu’au
 * … »); past that deadline, a confirmed seat's page says to telephone, with
 * the owner's number, and has no button (decision 052). `noindex`, `no-store`.
 *
 * `POST` (`intent=cancel`), through the public-action guards (`booking`):
 * frees the seat once (`cancelRegistration`); a second post changes nothing;
 * past the deadline, 409 with the owner's number.
 * An unknown or expired link answers 404 with a French explanation.
 */
import { CalendarPlus, CircleCheck, Clock, XCircle } from "lucide-react";
import { data, useActionData, useLoaderData } from "react-router";
import { PhoneReveal, usePhoneChannels } from "~/contact/phone-reveal";
import { PrintButton } from "~/courses/print-button";
import { buttonVariants } from "~/components/ui/button";
import { courseBookingInfo } from "~/content/courses";
import { postalAddressLine } from "~/content/payment";
import { CancelRegistration } from "~/courses/cancel-registration";
import { RelativeBookingNote } from "~/courses/relative-booking-note";
import { cancelByLinkIntent } from "~/courses/registration-actions.server";
import { everyDateCancelled, findRegistrationByToken } from "~/courses/registrations.server";
import { calendarAddress, registrationPath } from "~/courses/links";
import { courseBySlug, sessionEnd } from "~/courses/sessions.server";
import { linkIntent } from "~/courses/link-action.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import { formatChf, formatDateTime, formatDateTimeRange } from "~/utils/format";
import { cancelDeadlineAt } from "~/courses/deadlines.server";
import { getSiteSettings } from "~/settings/site.server";
import { CodeWordBox } from "~/trust/code-word-box";
import type { Route } from "./+types/course-registration";
import { needsDatabase } from "~/utils/database-down.server";
import { clockContext, dbContext } from "~/context.server";
import { AnswerStatus, InvalidLinkPage, LINK_PAGE_CLASS } from "~/courses/link-page";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const meta = pageMeta(context, request, {
    title: "Votre inscription",
    description: "Votre inscription à un cours en petit groupe.",
    noindex: true,
  });
  // The database down: the French 503 page, never « Ce lien n’est plus valable » (the link may be fine).
  const now = context.get(clockContext).now();
  const found = await needsDatabase(context, () => findRegistrationByToken(context.get(dbContext), params.token, now));
  if (!found) return data({ meta, registration: null, info: courseBookingInfo, asking: false }, { status: 404 });
  const { registration, session, lessons, position } = found;
  const series = session.seriesId !== null;
  const first = lessons[0] ?? session;
  const { courses, identity } = await getSiteSettings(context);
  const cancel = cancelDeadlineAt(first.startsAt, courses.cancelDeadlineHours, now);
  return {
    meta,
    registration: {
      state: everyDateCancelled(found) ? ("session-cancelled" as const) : registration.status,
      position,
      attendee: `${registration.firstName} ${registration.lastName}`,
      codeWord: registration.codeWord,
      seats: registration.seats,
      courseTitle: courseBySlug(session.courseId)?.title ?? session.courseId,
      courseId: session.courseId,
      /** The date in words, or a series' dates still held, one a line. */
      when: (series ? lessons : [session])
        .map((lesson) => formatDateTimeRange(lesson.startsAt, sessionEnd(lesson)))
        .join("\n"),
      /** How many dates a series holds (null for a single date). */
      lessonCount: series ? lessons.length : null,
      placeName: session.placeName,
      placeAddress: session.placeAddress,
      placeAccess: session.placeAccess,
      price: formatChf(session.priceChf),
      /** How it pays, as every page and mail says it (app/content/payment.ts). */
      payment: courseBookingInfo.payment[registration.paysBy],
      /** By invoice: the address it goes to, on one line; null when paid on site. */
      invoiceAddress: registration.paysBy === "facture" ? postalAddressLine(registration) : null,
      started: new Date(first.startsAt).getTime() <= now.getTime(),
      /** Until when the seat may be cancelled here (decision 052); past it, the owner's telephone. */
      deadline: { ...cancel, until: formatDateTime(cancel.until), phone: identity.phoneDisplay, tel: identity.phone },
      calendarUrl: calendarAddress(registrationPath(params.token)),
      path: registrationPath(params.token),
      /** Whether a mail reaches the attendee or the relative (else: the page is all they have). */
      mailed: Boolean(registration.email || registration.bookerEmail),
      /** The relative who registered the attendee ("Prénom Nom"), or null when they registered themselves. */
      booker: registration.bookerFirstName
        ? `${registration.bookerFirstName} ${registration.bookerLastName ?? ""}`.trim()
        : null,
      attendeeFirstName: registration.firstName,
      /** Who received the confirmation by e-mail: the address, and whose it is. */
      mailedTo: [
        ...(registration.bookerEmail ? [{ address: registration.bookerEmail, relative: true }] : []),
        ...(registration.email && registration.email.toLowerCase() !== registration.bookerEmail?.toLowerCase()
          ? [{ address: registration.email, relative: false }]
          : []),
      ],
    },
    /** "Annuler mon inscription" was followed: the page asks "Oui, annuler". */
    asking: new URL(request.url).searchParams.has("annuler"),
    info: courseBookingInfo,
  };
}

export const meta = loaderMeta;

export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const guarded = await linkIntent(request, context);
  if ("refused" in guarded) return guarded.refused;
  if (guarded.intent !== "cancel") return data({ message: "Rien n’a été changé." }, { status: 400 });
  return cancelByLinkIntent(context, params.token);
}

export default function RegistrationPage() {
  const { registration, info, asking } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const channels = usePhoneChannels();
  if (!registration) {
    return (
      <InvalidLinkPage
        gone="le cours a eu lieu il y a plus d’une semaine"
        about="sur votre inscription"
        phoneIdPrefix="lien"
      />
    );
  }
  const titles = {
    confirmed: { Icon: CircleCheck, text: "Votre inscription est confirmée", tone: "text-primary" },
    waiting: { Icon: Clock, text: "Vous êtes sur la liste d’attente", tone: "text-ink" },
    cancelled: { Icon: XCircle, text: "Cette inscription est annulée", tone: "text-red-800" },
    "session-cancelled": { Icon: XCircle, text: "Ce cours est annulé", tone: "text-red-800" },
  } as const;
  const title = titles[registration.state as keyof typeof titles];
  const active = registration.state === "confirmed" || registration.state === "waiting";
  return (
    <div className={LINK_PAGE_CLASS}>
      <h1 className={`flex items-start gap-3 text-4xl font-bold ${title.tone}`}>
        <title.Icon aria-hidden="true" className="mt-1 size-10 shrink-0" />
        {title.text}
      </h1>
      <AnswerStatus message={answer?.message} />
      {registration.state === "waiting" ? (
        <p className="mt-4 text-xl">
          {registration.lessonCount === null ? "La séance est complète." : "La série de séances est complète."} Vous
          êtes en position <strong>{registration.position}</strong> sur la liste d’attente. Si une place se libère, je
          vous la propose {registration.mailed ? "par e-mail" : "par téléphone"} et vous la garde un moment.
        </p>
      ) : null}
      {registration.state === "session-cancelled" ? (
        <p className="mt-4 text-xl">Je suis désolé : cette séance est annulée. Vous n’avez rien à payer.</p>
      ) : null}

      <dl className="mt-8 divide-y-2 divide-gray-100 rounded-2xl border-2 border-line bg-white text-lg">
        {[
          ["Cours", registration.courseTitle],
          registration.lessonCount === null
            ? ["Date", registration.when]
            : [
                `Dates (${registration.lessonCount} séance${registration.lessonCount > 1 ? "s" : ""})`,
                registration.when,
              ],
          ["Lieu", `${registration.placeName}\n${registration.placeAddress}`],
          ...(registration.placeAccess ? [["Accès", registration.placeAccess]] : []),
          ["Participant(e)", registration.attendee],
          ["Places", String(registration.seats)],
          ["Prix", `${registration.price} par personne`],
        ].map(([label, value]) => (
          <div key={label} className="grid gap-1 p-4 sm:grid-cols-[10rem_1fr]">
            <dt className="font-semibold">{label}</dt>
            <dd className="break-words whitespace-pre-line first-letter:uppercase">{value}</dd>
          </div>
        ))}
      </dl>

      {registration.booker ? <RelativeBookingNote registration={registration} /> : null}

      {active && registration.codeWord ? (
        <CodeWordBox
          codeWord={registration.codeWord}
          className="mt-8"
          {...(registration.booker ? { passOnTo: registration.attendeeFirstName } : {})}
        />
      ) : null}

      {registration.state === "confirmed" ? (
        <>
          <h2 className="mt-10 text-2xl font-bold">À apporter</h2>
          <p className="mt-2 text-xl">{info.bring}</p>
          <h2 className="mt-8 text-2xl font-bold">Paiement</h2>
          <p className="mt-2 text-xl">{registration.payment}</p>
          {registration.invoiceAddress ? (
            <p className="mt-2 text-xl">
              Adresse de la facture&nbsp;: <strong>{registration.invoiceAddress}</strong>
            </p>
          ) : null}
          <p className="mt-2 text-xl">{info.invoice}</p>
          <a href={registration.calendarUrl} className={`${buttonVariants({ size: "large" })} mt-8`}>
            <CalendarPlus aria-hidden="true" className="size-6" />
            Ajouter à mon agenda
          </a>
        </>
      ) : null}

      <section aria-labelledby="garder" className="mt-12 rounded-2xl border-2 border-line bg-white p-5">
        <h2 id="garder" className="text-2xl font-bold">
          Gardez cette page
        </h2>
        <p className="mt-2 text-xl">
          {registration.mailed
            ? "Gardez cette page ou imprimez-la : tout y est. Vous la retrouvez aussi par le lien de l’e-mail."
            : "Vous n’avez pas donné d’adresse e-mail : imprimez cette page, ou notez la date et le lieu. Pour toute question ou pour annuler, appelez-moi."}
        </p>
        <PrintButton />
        <p className="mt-6 text-xl">Une question&nbsp;? Appelez-moi&nbsp;:</p>
        {channels ? <PhoneReveal channels={channels} idPrefix="inscription" className="mt-3" /> : null}
      </section>

      {active && !registration.started ? (
        <CancelRegistration
          path={registration.path}
          attendee={registration.attendee}
          asking={asking}
          waiting={registration.state === "waiting"}
          deadline={registration.deadline}
        />
      ) : null}
      <p className="mt-10 text-xl">
        <a href={`/cours/${registration.courseId}`}>Retour au cours</a>
      </p>
    </div>
  );
}
