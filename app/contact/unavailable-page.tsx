/**
 * What a page shows while the database does not answer (issue 33, item
 * 10; app/utils/database-down.server.ts): the French notice and the
 * owner's telephone one tap away, from the root loader's channels (the
 * last settings read).
 *
 * - `UnavailablePage`: the page of its own, for an error boundary (the
 *   root's, an article's).
 * - `UnavailableNote`: the same words inside a page that still shows its
 *   form (a course's registration, the newsletter's box).
 */
import { UnavailableNotice } from "~/components/unavailable-notice";
import { PhoneReveal, usePhoneChannels } from "./phone-reveal";

export function UnavailableNote({ headingLevel = 2 }: { headingLevel?: 1 | 2 }) {
  const channels = usePhoneChannels();
  return (
    <UnavailableNotice
      headingLevel={headingLevel}
      phone={channels ? <PhoneReveal channels={channels} idPrefix="indisponible" /> : null}
    />
  );
}

export function UnavailablePage() {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <UnavailableNote headingLevel={1} />
    </div>
  );
}
