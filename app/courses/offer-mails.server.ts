/**
 * The mail of an offer of a freed seat (decision 049): to the attendee and
 * the relative who registered them, with « Je prends la place » and « Je ne
 * peux plus » (links to a page whose button posts: a mail scanner that
 * follows them changes nothing) and the end of the hold in words; and its
 * SMS (`offerSms`, decision 060): the course, the first date, the place's
 * name, the hold's end, the code word and the offer page's link, no name.
 */
import { formatDateTime, ofName } from "~/utils/format";
import { mailWhen, placesOf, renderToReader, type RegistrantMail, type RenderedMail } from "./mails.server";
import { courseTitle } from "./registrants.server";
import { gsmText } from "./reminder-channels.server";
import type { SessionRow } from "./sessions.server";
import type { CourseSms } from "./sms-channel.server";

/** The outbox kind of an offer's SMS. */
export const OFFER_SMS_KIND = "booking-offer-sms";

/** The offer's page, and its two answers (`?reponse=oui|non`: the page asks once more, with a button). */
export const offerLinks = (offerUrl: string) => ({
  accept: `${offerUrl}?reponse=oui`,
  decline: `${offerUrl}?reponse=non`,
});

/** « Une place pour vous » with its hold: `holdUntil`, the last moment the seat is kept. */
export function offerMail(
  mail: RegistrantMail & { seats: number; holdUntil: Date | string; offerUrl: string },
): RenderedMail {
  const until = formatDateTime(mail.holdUntil);
  const links = offerLinks(mail.offerUrl);
  const freed = mail.seats === 2 ? "deux places se sont libérées" : "une place s’est libérée";
  const them = mail.seats === 2 ? "les" : "la";
  return renderToReader(`Une place s’est libérée : ${mail.courseTitle}, ${mailWhen(mail)}`, mail, {
    lead: [
      mail.reader.relative
        ? `Bonne nouvelle : ${freed} pour le cours ${ofName(mail.attendeeName)}, que vous avez inscrit(e) sur la liste d’attente (${placesOf(mail.seats)}).`
        : `Bonne nouvelle : ${freed} pour ce cours, où vous êtes sur la liste d’attente (${placesOf(mail.seats)}).`,
      `Je vous ${them} garde jusqu’au ${until}. Dites-moi d’ici là si vous ${them} prenez : un clic sur un des boutons ci-dessous suffit.`,
    ],
    more: [
      `Sans réponse le ${until}, je ${mail.seats === 2 ? "les" : "la"} propose à la personne suivante de la liste d’attente, et votre inscription sur la liste prend fin.`,
      "Une question ? Répondez simplement à ce message, ou appelez-moi.",
    ],
    links: [
      { label: "Je prends la place", url: links.accept },
      { label: "Je ne peux plus", url: links.decline },
    ],
  });
}

/**
 * The SMS of an offer: GSM-spelt, naming no one (the code word says it is
 * the teacher's); `offerUrl` opens the offer's page, whose buttons post.
 * Given up unsent once the hold ends (`notAfter`).
 */
export function offerSms({
  session,
  seats,
  codeWord,
  until,
  offerUrl,
}: {
  session: Pick<SessionRow, "courseId" | "startsAt" | "placeName">;
  seats: number;
  codeWord: string | null;
  until: Date;
  offerUrl: string;
}): CourseSms {
  const freed = seats === 2 ? "Deux places se sont libérées" : "Une place s’est libérée";
  return {
    kind: OFFER_SMS_KIND,
    label: `SMS : place libérée, cours « ${courseTitle(session)} »`,
    text: gsmText(
      [
        `${freed} pour vous : cours « ${courseTitle(session)} », ${formatDateTime(session.startsAt)}, ${session.placeName}.`,
        `Je vous ${seats === 2 ? "les" : "la"} garde jusqu’au ${formatDateTime(until)}.`,
        ...(codeWord ? [`Mot code : ${codeWord}.`] : []),
        `Je prends la place / Je ne peux plus : ${offerUrl}`,
      ].join(" "),
    ),
    notAfter: until,
  };
}
