/**
 * The owner's notices about course registrations, rendered when written to
 * the outbox: a registration, a cancellation, seats freed by an erasure, each
 * with who is first on the waiting list (plain and short: the owner reads
 * them between two lessons). The registrants' mails are in `mails.server.ts`.
 */
import { escapeHtml, oneLine } from "~/mail/render.server";
import { mailWhen, type MailLink, type MailSession, type RenderedMail } from "./mails.server";

/** The owner's plain mail: paragraphs, a table of details, its link (owner's notices, go-no-go-mails.server.ts too). */
export function renderOwner(
  subject: string,
  paragraphs: string[],
  details: [string, string][],
  link: MailLink,
): RenderedMail {
  const text = [
    ...paragraphs,
    details.map(([label, value]) => `${label} : ${value}`).join("\n"),
    `${link.label} :\n${link.url}`,
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
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
  ].join("");
  return { subject: oneLine(subject), text: `${text}\n`, html };
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
    /** How it pays, in words (« Sur place », « Sur facture : Rue du Lac 3, 1800 Vevey »). */
    payment?: string;
    deskUrl: string;
  },
): RenderedMail {
  return renderOwner(
    `${mail.position === null ? "Nouvelle inscription" : "Liste d’attente"} : ${mail.courseTitle}, ${mailWhen(mail)}`,
    [
      mail.position === null
        ? "Une inscription confirmée."
        : `Une inscription en liste d’attente, position ${mail.position}.`,
    ],
    [
      ["Participant(e)", personLine(mail.attendee)],
      ...(mail.booker ? [["Inscrit(e) par", personLine(mail.booker)] as [string, string]] : []),
      ["Places", String(mail.seats)],
      ...(mail.payment ? [["Paiement", mail.payment] as [string, string]] : []),
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
  return renderOwner(
    `Annulation : ${mail.courseTitle}, ${mailWhen(mail)}`,
    [
      `${mail.attendee.name} a annulé son inscription (${mail.seats} place${mail.seats > 1 ? "s" : ""}).`,
      waitingLine(mail.firstWaiting),
    ],
    [],
    { label: "La séance dans le bureau", url: mail.deskUrl },
  );
}

/** Who is first on the waiting list, and what the owner does next. */
const waitingLine = (firstWaiting: OwnerPerson | null) =>
  firstWaiting
    ? `Première personne sur la liste d’attente : ${personLine(firstWaiting)}. Le site lui propose la place et la lui garde un moment ; la page de la séance montre sa réponse (sans e-mail, appelez-la : elle y figure avec l’heure limite).`
    : "Personne n’attend sur la liste d’attente.";

/**
 * The owner's notice that an erasure (a person's data erased at their
 * request, app/courses/plug.server.ts) freed seats of a session, with who is
 * first on the waiting list: the erased person is not named.
 */
export function ownerErasureMail(
  mail: MailSession & { seats: number; firstWaiting: OwnerPerson | null; deskUrl: string },
): RenderedMail {
  return renderOwner(
    `Place libérée : ${mail.courseTitle}, ${mailWhen(mail)}`,
    [
      `Une inscription a été effacée à la demande de la personne : ${mail.seats} place${mail.seats > 1 ? "s" : ""} libérée${mail.seats > 1 ? "s" : ""}.`,
      waitingLine(mail.firstWaiting),
    ],
    [],
    { label: "La séance dans le bureau", url: mail.deskUrl },
  );
}
