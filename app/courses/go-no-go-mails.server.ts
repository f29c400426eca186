/**
 * The mails of a course's go/no-go (decision 052): the owner's notice that
 * a course is below its minimum at its go/no-go time (naming no one: how
 * many seats, the minimum, the session's desk page with its two buttons),
 * and, when the owner cancels it, each registrant's mail (confirmed or
 * waiting: the course will not take place, nothing to pay).
 */
import { renderToReader, mailWhen, type MailSession, type RegistrantMail, type RenderedMail } from "./mails.server";
import { renderOwner } from "./owner-mails.server";

/** « 2 places » / « 1 place » / « aucune place ». */
const seatsWords = (seats: number) => (seats === 0 ? "aucune place" : seats === 1 ? "1 place" : `${seats} places`);

/** The owner's notice: course below its minimum at its go/no-go time. */
export function ownerBelowMinimumMail(
  mail: MailSession & { seats: number; minimum: number; deskUrl: string },
): RenderedMail {
  return renderOwner(
    `À décider : ${mail.courseTitle}, ${mailWhen(mail)}`,
    [
      `Ce cours a ${seatsWords(mail.seats)} prise${mail.seats > 1 ? "s" : ""} pour un minimum de ${mail.minimum}, et il commence bientôt.`,
      "Sur la page de la séance, choisissez « La maintenir quand même » ou « Annuler la session » : en cas d’annulation, chaque personne inscrite ou en liste d’attente est prévenue (par e-mail, ou sur la liste des personnes à appeler) et les places sont libérées.",
    ],
    [],
    { label: "Décider dans le bureau", url: mail.deskUrl },
  );
}

/** To each registrant (confirmed or waiting) with an e-mail when the owner cancels a course below its minimum. */
export function belowMinimumCancelledMail(mail: RegistrantMail): RenderedMail {
  const series = Boolean(mail.lessons);
  const course = series ? "le cours" : "la séance";
  const relativeCourse = series ? "le cours auquel" : "la séance à laquelle";
  return renderToReader(`Cours annulé : ${mail.courseTitle}, ${mailWhen(mail)}`, mail, {
    lead: [
      mail.reader.relative
        ? `Je suis désolé : trop peu de personnes se sont inscrites, et ${relativeCourse} vous avez inscrit ${mail.attendeeName} n’aura pas lieu. L’inscription est annulée ; vous n’avez rien à payer.`
        : `Je suis désolé : trop peu de personnes se sont inscrites, et ${course} n’aura pas lieu. Votre inscription est annulée ; vous n’avez rien à payer.`,
      "Je vous préviendrai volontiers de la prochaine date : répondez simplement à ce message, ou appelez-moi.",
    ],
  });
}
