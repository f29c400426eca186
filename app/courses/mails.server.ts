/**
 * The mails of course registrations, rendered when written to the outbox
 * (app/mail/enqueue.server.ts). To the attendee and to the relative who
 * registered them, each greeted by name and spoken to as who they are
 * (`Reader`): the confirmation (or the waiting-list notice), the reminder
 * 24 hours before, the cancellation of a registration (by the person or by
 * the owner), the seat given from the waiting list, the session's
 * cancellation; all in the one layout of visitor mails
 * (`app/mail/layout.server.ts`: one large column, the owner's telephone and
 * "reply to this mail" at the bottom). The owner's notices are in
 * `owner-mails.server.ts`.
 * The confirmation links to the calendar file and the booking attaches it
 * (`calendarAttachment`, ics.server.ts).
 */
import { courseBookingInfo } from "~/content/courses";
import { postalAddressLine } from "~/content/payment";
import type { courseRegistrations } from "~/db/schema";
import { mailButton, mailDetails, mailDocument, mailParagraph, replyText, visitorFooter } from "~/mail/layout.server";
import { oneLine } from "~/mail/render.server";
import { formatChf, formatDateTimeRange, ofName } from "~/utils/format";
import { cancelUntilWords, type CancelDeadline } from "./deadlines.server";
import { CALENDAR_FILE } from "./ics.server";
import { calendarAddress } from "./links";
import { lessonLines, placeInWords, sessionEnd, type SessionRow } from "./sessions.server";

type RegistrationRow = typeof courseRegistrations.$inferSelect;

/** Outbox kinds of this feature. */
export const BOOKING_MAIL = {
  confirmation: "booking-confirmation",
  waiting: "booking-waiting",
  reminder: "booking-reminder",
  registrationCancelled: "booking-cancelled",
  seatGiven: "booking-seat-given",
  offer: "booking-offer",
  sessionCancelled: "booking-session-cancelled",
  dateMoved: "booking-date-moved",
  ownerRegistration: "booking-owner-registration",
  ownerCancellation: "booking-owner-cancellation",
  ownerErasure: "booking-owner-erasure",
  ownerDigest: "booking-owner-digest",
  ownerBelowMinimum: "booking-owner-below-minimum",
} as const;

/** A rendered mail: subject, text and HTML bodies. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The fields of a session the mails show. */
type SessionShown = Pick<
  SessionRow,
  "startsAt" | "durationMinutes" | "placeName" | "placeAddress" | "placeAccess" | "priceChf"
>;

/**
 * What the mails say about a session: a single date (`session`), or a
 * series (`lessons`: its dates still held, by start; `session` is then its
 * first session, whose place and price the mail shows).
 */
export interface MailSession {
  courseTitle: string;
  session: SessionShown;
  lessons?: readonly SessionShown[] | undefined;
}

/** A link of a mail: its words and its address. */
export interface MailLink {
  label: string;
  url: string;
}

/**
 * Who reads a mail about a registration: the attendee themselves
 * (`relative` false), or the relative who registered them (`relative`
 * true), greeted by `name` ("Prénom Nom").
 */
export interface Reader {
  name: string;
  relative: boolean;
}

/** What every mail to a registrant knows: the session, who reads, and whom the registration is for. */
export type RegistrantMail = MailSession & { reader: Reader; attendeeName: string };

/**
 * A registrant's mail in the visitors' layout: "Bonjour {name},", the
 * `lead` paragraphs, the session's details (date and place first, where
 * the eye lands), the `more` paragraphs, the links as big buttons, and the
 * footer with the owner's telephone. The text part says the same.
 */
export function renderToReader(
  subject: string,
  mail: RegistrantMail,
  { lead, more = [], links = [] }: { lead: string[]; more?: string[]; links?: MailLink[] },
): RenderedMail {
  const opening = [`Bonjour ${mail.reader.name},`, ...lead];
  const details = sessionDetails(mail);
  const text = [
    ...opening,
    details.map(([label, value]) => `${label} : ${value}`).join("\n"),
    ...more,
    ...links.map(({ label, url }) => `${label} :\n${url}`),
    `-- \n${replyText()}`,
  ].join("\n\n");
  const title = oneLine(subject);
  const body = [
    ...opening.map(mailParagraph),
    mailDetails(details),
    ...more.map(mailParagraph),
    ...links.map(({ label, url }) => mailButton(label, url)),
  ].join("");
  return { subject: title, text: `${text}\n`, html: mailDocument({ title, body, footer: visitorFooter() }) };
}

/** The session's date in words ("mardi 12 janvier 2027, 14 h 00 – 16 h 00"). */
export function sessionWhen(session: MailSession["session"]): string {
  return formatDateTimeRange(session.startsAt, sessionEnd(session));
}

/**
 * What a subject says of the dates: the date in words, or for a series
 * "4 séances dès le mardi 3 novembre 2026".
 */
export function mailWhen({ session, lessons }: Pick<MailSession, "session" | "lessons">): string {
  if (!lessons) return sessionWhen(session);
  const first = lessons[0] ?? session;
  const day = formatDateTimeRange(first.startsAt, sessionEnd(first)).replace(/,.*$/, "");
  return `${lessons.length} séance${lessons.length > 1 ? "s" : ""} dès le ${day}`;
}

/** Date, place, access notes and price, as the registrants' mails list them. */
function sessionDetails({
  courseTitle,
  session,
  lessons,
  attendeeName,
}: MailSession & { attendeeName: string }): [string, string][] {
  return [
    ["Cours", courseTitle],
    lessons
      ? [`Dates (${lessons.length} séance${lessons.length > 1 ? "s" : ""})`, lessonLines(lessons).join("\n")]
      : ["Date", sessionWhen(session)],
    ["Lieu", `${session.placeName}\n${session.placeAddress}`],
    ...(session.placeAccess.trim() ? [["Accès", session.placeAccess] as [string, string]] : []),
    ["Participant(e)", attendeeName],
    ["Prix", `${formatChf(session.priceChf)} par personne`],
  ];
}

/**
 * The code word's paragraphs (issue 23): the word, what it is for, and the
 * address of `/confiance` on the site of `manageUrl`; none without a word.
 */
function codeWordParagraphs({ codeWord, manageUrl }: { codeWord?: string | null; manageUrl: string }): string[] {
  if (!codeWord) return [];
  return [
    `Votre mot de code : « ${codeWord} ». Quand je vous appelle, je vous le dis au début de l’appel : vous savez ainsi que c’est bien moi.`,
    `Ce que je ne vous demanderai jamais : ${new URL("/confiance", manageUrl).href}`,
  ];
}

export const placesOf = (seats: number) => (seats === 2 ? "2 places" : "1 place");

/** How a registration pays, as its mails say it (the registration's row has these fields). */
export type MailPayment = Pick<RegistrationRow, "paysBy" | "postalStreet" | "postalCode" | "postalLocality">;

/**
 * « Paiement : » the registration's way (app/content/payment.ts, as every page says it), when an invoice
 * comes (with `rule`), and by invoice the address it goes to.
 */
export function paymentParagraphs(payment: MailPayment, { rule = true } = {}): string[] {
  return [
    `Paiement : ${courseBookingInfo.payment[payment.paysBy]}${rule ? ` ${courseBookingInfo.invoice}` : ""}`,
    ...(payment.paysBy === "facture" ? [`Adresse de la facture : ${postalAddressLine(payment)}`] : []),
  ];
}

/**
 * Until when the seat may be cancelled by its link (decision 052): « Annulation possible jusqu’au …, avec le
 * lien ci-dessous ; ensuite, appelez-moi. », or, once `cancel` has passed, to call.
 */
export function deadlineParagraph(cancel: CancelDeadline): string {
  return cancel.passed
    ? "Le délai pour annuler en ligne est passé. Un empêchement ? Appelez-moi, mon numéro est au bas de ce message."
    : `${cancelUntilWords(cancel.until)}, avec le lien ci-dessous ; ensuite, appelez-moi.`;
}

/** The paragraphs of a confirmed seat: what to bring, how to pay, the calendar, how and until when to cancel (said to `reader`). */
function confirmedParagraphs(reader: Reader, payment: MailPayment, cancel?: CancelDeadline): string[] {
  return [
    `À apporter : ${courseBookingInfo.bring}`,
    ...paymentParagraphs(payment),
    `Pour ajouter le cours à votre agenda, ouvrez le fichier joint « ${CALENDAR_FILE.name} » ou le lien « Ajouter à mon agenda » ci-dessous.`,
    ...(cancel?.passed
      ? []
      : [
          reader.relative
            ? "Un empêchement ? Annulez l’inscription avec le lien ci-dessous : la place ira à une autre personne."
            : courseBookingInfo.cancel,
        ]),
    ...(cancel ? [deadlineParagraph(cancel)] : []),
  ];
}

const confirmedLinks = (manageUrl: string): MailLink[] => [
  { label: "Ajouter à mon agenda", url: calendarAddress(manageUrl) },
  { label: "Voir ou annuler l’inscription", url: manageUrl },
];

/** The attendee's (and the relative's) mail after registering: confirmed, or on the waiting list at `position`. */
export function registrationMail(
  mail: RegistrantMail & {
    seats: number;
    position: number | null;
    manageUrl: string;
    /** The registration's code word (app/trust/code-word.server.ts); null on rows stored before it. */
    codeWord?: string | null;
    /** How it pays (the registration's row). */
    payment: MailPayment;
    /** A confirmed seat's cancellation deadline (decision 052). */
    cancel?: CancelDeadline;
  },
): RenderedMail {
  const places = placesOf(mail.seats);
  const { relative } = mail.reader;
  if (mail.position !== null) {
    return renderToReader(`Liste d’attente : ${mail.courseTitle}, ${mailWhen(mail)}`, mail, {
      lead: [
        relative
          ? `Cette séance est complète. ${mail.attendeeName}, que vous avez inscrit(e), est sur la liste d’attente (${places}), en position ${mail.position}.`
          : `Cette séance est complète. Vous êtes sur la liste d’attente (${places}), en position ${mail.position}.`,
        "Si une place se libère, je vous la propose par e-mail et vous la garde un moment : il suffira de cliquer sur « Je prends la place ». Vous n’avez rien à faire d’ici là.",
        ...codeWordParagraphs(mail),
      ],
      links: [{ label: "Voir ou annuler l’inscription", url: mail.manageUrl }],
    });
  }
  return renderToReader(`Inscription confirmée : ${mail.courseTitle}, ${mailWhen(mail)}`, mail, {
    lead: [
      relative
        ? `Vous avez inscrit ${mail.attendeeName} : son inscription est confirmée (${places}). Je me réjouis de l’accueillir.`
        : `Votre inscription est confirmée (${places}). Je me réjouis de vous accueillir.`,
    ],
    more: [...confirmedParagraphs(mail.reader, mail.payment, mail.cancel), ...codeWordParagraphs(mail)],
    links: confirmedLinks(mail.manageUrl),
  });
}

/** To the person taken in from the waiting list when the owner gives them the seat. */
export function seatGivenMail(
  mail: RegistrantMail & { seats: number; manageUrl: string; payment: MailPayment; cancel?: CancelDeadline },
): RenderedMail {
  const places = placesOf(mail.seats);
  return renderToReader(`Une place pour vous : ${mail.courseTitle}, ${mailWhen(mail)}`, mail, {
    lead: [
      mail.reader.relative
        ? `Bonne nouvelle : une place s’est libérée. L’inscription ${ofName(mail.attendeeName)} est maintenant confirmée (${places}).`
        : `Bonne nouvelle : une place s’est libérée. Votre inscription est maintenant confirmée (${places}).`,
    ],
    more: confirmedParagraphs(mail.reader, mail.payment, mail.cancel),
    links: confirmedLinks(mail.manageUrl),
  });
}

/**
 * The reminder, sent 24 hours before the session: before each date of a
 * series, saying which one it is (`lesson`: "séance 2 sur 4"). It names the
 * date, never « demain »: it may leave late (the server or SMTP down), and
 * the outbox gives it up at the lesson's start (`notAfter`). With `cancel`
 * (passed: as it stands when the reminder leaves), until when the seat may
 * be cancelled online, or to call; past it, the link only shows the
 * registration.
 */
export function reminderMail(
  mail: RegistrantMail & {
    manageUrl: string | null;
    lesson?: { number: number; of: number } | null;
    payment: MailPayment;
    cancel?: CancelDeadline;
  },
): RenderedMail {
  const which = mail.lesson ? ` (séance ${mail.lesson.number} sur ${mail.lesson.of})` : "";
  const when = sessionWhen(mail.session);
  return renderToReader(`Rappel : ${mail.courseTitle}, ${when}`, mail, {
    lead: [
      mail.reader.relative
        ? `Petit rappel : le cours ${ofName(mail.attendeeName)}, que vous avez inscrit(e), a lieu le ${when}${which}.`
        : `Petit rappel : votre cours a lieu le ${when}${which}.`,
    ],
    more: [
      `À apporter : ${courseBookingInfo.bring}`,
      ...paymentParagraphs(mail.payment, { rule: false }),
      ...(mail.cancel ? [deadlineParagraph(mail.cancel)] : []),
    ],
    links: mail.manageUrl
      ? [
          {
            label: mail.cancel?.passed ? "Voir l’inscription" : "Un empêchement ? Annuler l’inscription",
            url: mail.manageUrl,
          },
        ]
      : [],
  });
}

/** To each registrant with an e-mail when their registration is cancelled, by themselves (`by` "person") or by the owner. */
export function registrationCancelledMail(
  mail: RegistrantMail & { by: "person" | "owner"; waiting?: boolean },
): RenderedMail {
  const what = `${mail.reader.relative ? `l’inscription ${ofName(mail.attendeeName)}` : "votre inscription"}${mail.waiting ? " sur la liste d’attente" : ""}`;
  return renderToReader(`Inscription annulée : ${mail.courseTitle}, ${mailWhen(mail)}`, mail, {
    lead: [
      mail.by === "owner"
        ? `Je vous confirme que ${what} à ce cours est annulée. Vous n’avez rien à payer.`
        : mail.waiting
          ? `C’est fait : ${what} de ce cours est annulée. Merci de m’avoir prévenu.`
          : `C’est fait : ${what} à ce cours est annulée. Merci de m’avoir prévenu, la place ira à une autre personne.`,
      "Une autre date vous conviendrait ? Répondez simplement à ce message, ou appelez-moi.",
    ],
  });
}

/** To each registrant with an e-mail when the owner cancels the session. */
export function sessionCancelledMail(mail: RegistrantMail): RenderedMail {
  return renderToReader(`Cours annulé : ${mail.courseTitle}, ${mailWhen(mail)}`, mail, {
    lead: [
      mail.reader.relative
        ? `Je suis désolé : la séance à laquelle vous avez inscrit ${mail.attendeeName} est annulée. Vous n’avez rien à payer.`
        : "Je suis désolé : la séance à laquelle vous étiez inscrit(e) est annulée. Vous n’avez rien à payer.",
      "Je vous propose volontiers une autre date : répondez simplement à ce message, ou appelez-moi.",
    ],
  });
}

/**
 * To each registrant of a series with an e-mail when the owner cancels one
 * of its dates (`session`): that date is cancelled, the registration holds
 * for the `remaining` dates, listed.
 */
export function seriesDateCancelledMail(
  mail: RegistrantMail & { remaining: readonly MailSession["session"][] },
): RenderedMail {
  const dates = mail.remaining.length
    ? [`Les autres séances ont lieu comme prévu :\n${lessonLines(mail.remaining).join("\n")}`]
    : [];
  return renderToReader(`Séance annulée : ${mail.courseTitle}, ${sessionWhen(mail.session)}`, mail, {
    lead: [
      mail.reader.relative
        ? `Je suis désolé : une séance du cours auquel vous avez inscrit ${mail.attendeeName} est annulée, celle du ${sessionWhen(mail.session)}.`
        : `Je suis désolé : une séance de votre cours est annulée, celle du ${sessionWhen(mail.session)}.`,
      ...dates,
      "Je vous dirai comment nous rattrapons cette séance. Une question ? Répondez simplement à ce message, ou appelez-moi.",
    ],
  });
}

/**
 * To each registrant of a series with an e-mail when the owner moves one of
 * its dates (`moved` as it is now; `before` its former date in words and
 * `beforePlace` its former place; `session` the series' first date, whose
 * place and price the details show): what changed (the day, the time, the
 * place), every date of the series (`lessons`, each with its place when it
 * is not the first's), the calendar file again and the registration's link.
 */
export function seriesDateMovedMail(
  mail: RegistrantMail & {
    moved: SessionShown;
    before: string;
    beforePlace: string;
    manageUrl: string;
    /** On the waiting list: no calendar file, and a word that the place is still waited for. */
    waiting: boolean;
  },
): RenderedMail {
  const when = sessionWhen(mail.moved);
  const place = placeInWords(mail.moved);
  const dateChanged = when !== mail.before;
  const placeChanged = place !== mail.beforePlace;
  const what = dateChanged && placeChanged ? "de date et de lieu" : dateChanged ? "de date" : "de lieu";
  const news = [
    dateChanged ? `a lieu le ${when}` : null,
    placeChanged ? `${dateChanged ? "et " : "a lieu "}à cette adresse : ${place}` : null,
  ]
    .filter(Boolean)
    .join(" ");
  const subject = dateChanged
    ? `Changement de date : ${mail.courseTitle}, ${when}`
    : `Changement de lieu : ${mail.courseTitle}, ${when}`;
  return renderToReader(subject, mail, {
    lead: [
      mail.reader.relative
        ? `Une séance du cours auquel vous avez inscrit ${mail.attendeeName} change ${what} : celle du ${mail.before} ${news}.`
        : `Une séance de votre cours change ${what} : celle du ${mail.before} ${news}.`,
      "Les autres séances ne changent pas. Toutes les dates sont ci-dessous.",
      ...(mail.waiting ? ["Vous restez sur la liste d’attente, à la même position."] : []),
    ],
    more: [
      ...(mail.waiting
        ? []
        : [
            `Pour mettre votre agenda à jour, ouvrez le fichier joint « ${CALENDAR_FILE.name} » ou le lien « Ajouter à mon agenda » ci-dessous.`,
          ]),
      "Cette date ne vous convient pas ? Répondez simplement à ce message, ou appelez-moi.",
    ],
    links: mail.waiting
      ? [{ label: "Voir ou annuler l’inscription", url: mail.manageUrl }]
      : confirmedLinks(mail.manageUrl),
  });
}
