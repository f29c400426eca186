/**
 * Parts shared by the pages a person opens from a link with a token (her
 * registration, an offered seat, an SMS reminder, a group's list): the
 * page for a link that leads nowhere (`InvalidLinkPage`) and the answer to
 * the button she pressed (`AnswerStatus`).
 */
import { PhoneReveal, usePhoneChannels } from "~/contact/phone-reveal";

/** The frame of a link page. */
export const LINK_PAGE_CLASS = "mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 sm:py-16";

/**
 * « Ce lien n’est plus valable »: the link is incomplete, or `gone` (« le
 * cours a eu lieu il y a plus d’une semaine »); questions (`about`: « sur
 * votre inscription ») by the contact page or the telephone, shown by
 * `PhoneReveal` (ids `phoneIdPrefix`) when given.
 */
export function InvalidLinkPage({
  gone,
  about,
  phoneIdPrefix,
}: {
  gone: string;
  about?: string;
  phoneIdPrefix?: string;
}) {
  const channels = usePhoneChannels();
  return (
    <div className={LINK_PAGE_CLASS}>
      <h1 className="text-4xl font-bold">Ce lien n’est plus valable</h1>
      <p className="mt-4 text-xl">
        Le lien est incomplet, ou {gone}. Pour toute question{about ? ` ${about}` : ""},{" "}
        <a href="/contact">écrivez-moi</a> ou appelez-moi.
      </p>
      {phoneIdPrefix && channels ? <PhoneReveal channels={channels} idPrefix={phoneIdPrefix} className="mt-6" /> : null}
    </div>
  );
}

/** What the pressed button did, read out as a status (nothing without `message`). */
export function AnswerStatus({ message }: { message?: string | null }) {
  return message ? (
    <p role="status" className="mt-6 rounded-2xl border-2 border-primary bg-primary-soft p-4 text-xl">
      {message}
    </p>
  ) : null;
}
