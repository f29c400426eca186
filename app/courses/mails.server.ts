/**
 * The mails of course registrations, rendered when written to the outbox
 * (app/mail/enqueue.server.ts): the confirmation (or the waiting-list
 * notice) to the attendee and to the relative who registered them, the
 * reminder 24 hours before, the session's cancellation, and the owner's
 * notifications (a registration, a cancellation, who is first on the
 * waiting list). Each has a text body and a simple HTML body whose values
 * are escaped (`escapeHtml`). The confirmation links to the calendar file
 * and the booking attaches it (`calendarAttachment`, ics.server.ts).
 */
import { courseBookingInfo } from "~/content/courses";
import { escapeHtml, oneLine } from "~/mail/render.server";
import { formatChf, formatDateTimeRange } from "~/utils/format";
import { CALENDAR_FILE } from "./ics.server";
import { calendarAddress } from "./links";
import { sessionEnd, type SessionRow } from "./sessions.server";

/** Outbox kinds of this feature. */
export const BOOKING_MAIL = {
  confirmation: "booking-confirmation",
  waiting: "booking-waiting",
  reminder: "booking-reminder",
  sessionCancelled: "booking-session-cancelled",
  ownerRegistration: "booking-owner-registration",
  ownerCancellation: "booking-owner-cancellation",
} as const;

/** A rendered mail: subject, text and HTML bodies. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** What the mails say about a session. */
export interface MailSession {
  courseTitle: string;
  session: Pick<SessionRow, "startsAt" | "durationMinutes" | "placeName" | "placeAddress" | "placeAccess" | "priceChf">;
}

/** A link of a mail: its words and its address. */
interface MailLink {
  label: string;
  url: string;
}

/** A mail made of paragraphs, a table of details and its links (one, several or none). */
function render(
  subject: string,
  paragraphs: string[],
  details: [string, string][],
  link?: MailLink | MailLink[],
): RenderedMail {
  const links = link === undefined ? [] : [link].flat();
  const text = [
    ...paragraphs,
    details.map(([label, value]) => `${label} : ${value}`).join("\n"),
    ...links.map(({ label, url }) => `${label} :\n${url}`),
  ]
    .filter(Boolean)
    .join("\n\n");
  const html = [
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    details.length
      ? `<table cellpadding="6">${details
          .map(
            ([label, value]) =>
              `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td>${escapeHtml(value).replace(/\r?\n/g, "<br>")}</td></tr>`,
          )
          .join("")}</table>`
      : "",
    ...links.map(({ label, url }) => `<p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p>`),
  ].join("");
  return { subject: oneLine(subject), text: `${text}\n`, html };
}

/** The session's date in words ("mardi 12 janvier 2027, 14 h 00 – 16 h 00"). */
export function sessionWhen(session: MailSession["session"]): string {
  return formatDateTimeRange(session.startsAt, sessionEnd(session));
}

/** Date, place, access notes and price, as the attendee's mails list them. */
function sessionDetails({ courseTitle, session }: MailSession): [string, string][] {
  return [
    ["Cours", courseTitle],
    ["Date", sessionWhen(session)],
    ["Lieu", `${session.placeName}\n${session.placeAddress}`],
    ...(session.placeAccess.trim() ? [["Accès", session.placeAccess] as [string, string]] : []),
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

/** The attendee's (and the relative's) mail after registering: confirmed, or on the waiting list at `position`. */
export function registrationMail(
  mail: MailSession & {
    attendeeName: string;
    seats: number;
    position: number | null;
    manageUrl: string;
    /** The registration's code word (app/trust/code-word.server.ts); null on rows stored before it. */
    codeWord?: string | null;
  },
): RenderedMail {
  const places = mail.seats === 2 ? "2 places" : "1 place";
  if (mail.position !== null) {
    return render(
      `Liste d’attente : ${mail.courseTitle}, ${sessionWhen(mail.session)}`,
      [
        "Bonjour,",
        `Cette séance est complète. ${mail.attendeeName} est inscrit(e) sur la liste d’attente (${places}), en position ${mail.position}.`,
        "Si une place se libère, je vous appelle. Vous n’avez rien à faire d’ici là.",
        ...codeWordParagraphs(mail),
      ],
      sessionDetails(mail),
      { label: "Voir ou annuler cette inscription", url: mail.manageUrl },
    );
  }
  return render(
    `Inscription confirmée : ${mail.courseTitle}, ${sessionWhen(mail.session)}`,
    [
      "Bonjour,",
      `L’inscription de ${mail.attendeeName} est confirmée (${places}). Je me réjouis de vous accueillir.`,
      `À apporter : ${courseBookingInfo.bring}`,
      `Paiement : ${courseBookingInfo.payment}`,
      `Pour ajouter le cours à votre agenda, ouvrez le fichier joint « ${CALENDAR_FILE.name} » ou le lien « Ajouter à mon agenda » ci-dessous.`,
      courseBookingInfo.cancel,
      ...codeWordParagraphs(mail),
    ],
    sessionDetails(mail),
    [
      { label: "Ajouter à mon agenda", url: calendarAddress(mail.manageUrl) },
      { label: "Voir ou annuler mon inscription", url: mail.manageUrl },
    ],
  );
}

/** The reminder, sent 24 hours before the session. */
export function reminderMail(mail: MailSession & { attendeeName: string; manageUrl: string | null }): RenderedMail {
  return render(
    `Rappel : ${mail.courseTitle}, demain`,
    [
      "Bonjour,",
      `Petit rappel : le cours de ${mail.attendeeName} a lieu demain.`,
      `À apporter : ${courseBookingInfo.bring}`,
      `Paiement : ${courseBookingInfo.payment}`,
    ],
    sessionDetails(mail),
    mail.manageUrl ? { label: "Un empêchement ? Annuler l’inscription", url: mail.manageUrl } : undefined,
  );
}

/** To each registrant with an e-mail when the owner cancels the session. */
export function sessionCancelledMail(mail: MailSession & { attendeeName: string }): RenderedMail {
  return render(
    `Cours annulé : ${mail.courseTitle}, ${sessionWhen(mail.session)}`,
    [
      "Bonjour,",
      `Je suis désolé : la séance à laquelle ${mail.attendeeName} était inscrit(e) est annulée. Vous n’avez rien à payer.`,
      "Je vous propose volontiers une autre date : répondez simplement à ce message ou appelez-moi.",
    ],
    sessionDetails(mail),
  );
}

/** A person as the owner's mails show them. */
export interface OwnerPerson {
  name: string;
  phone: string;
  email: string | null;
}

const personLine = (person: OwnerPerson) =>
  `${person.name}, ${person.phone}${person.email ? `, ${person.email}` : ", sans e-mail"}`;

/** The owner's notice of a new registration. */
export function ownerRegistrationMail(
  mail: MailSession & {
    attendee: OwnerPerson;
    booker: OwnerPerson | null;
    seats: number;
    position: number | null;
    message: string | null;
    /** The registration's code word, to say when calling; null on rows stored before it. */
    codeWord?: string | null;
    deskUrl: string;
  },
): RenderedMail {
  return render(
    `${mail.position === null ? "Nouvelle inscription" : "Liste d’attente"} : ${mail.courseTitle}, ${sessionWhen(mail.session)}`,
    [
      mail.position === null
        ? "Une inscription confirmée."
        : `Une inscription en liste d’attente, position ${mail.position}.`,
    ],
    [
      ["Participant(e)", personLine(mail.attendee)],
      ...(mail.booker ? [["Inscrit(e) par", personLine(mail.booker)] as [string, string]] : []),
      ["Places", String(mail.seats)],
      ...(mail.message ? [["Message", mail.message] as [string, string]] : []),
      ...(mail.codeWord ? [["Mot de code", `« ${mail.codeWord} »`] as [string, string]] : []),
    ],
    { label: "La séance dans le bureau", url: mail.deskUrl },
  );
}

/** The owner's notice of a cancellation, with who is first on the waiting list (nobody is moved automatically). */
export function ownerCancellationMail(
  mail: MailSession & { attendee: OwnerPerson; seats: number; firstWaiting: OwnerPerson | null; deskUrl: string },
): RenderedMail {
  return render(
    `Annulation : ${mail.courseTitle}, ${sessionWhen(mail.session)}`,
    [
      `${mail.attendee.name} a annulé son inscription (${mail.seats} place${mail.seats > 1 ? "s" : ""}).`,
      mail.firstWaiting
        ? `Première personne sur la liste d’attente : ${personLine(mail.firstWaiting)}. Appelez-la, puis donnez-lui la place dans le bureau.`
        : "Personne n’attend sur la liste d’attente.",
    ],
    [],
    { label: "La séance dans le bureau", url: mail.deskUrl },
  );
}
