/** The owner's contact channels (Réglages, `/admin/reglages`), encoded for a loader to pass to the page. */
import type { ContactChannels } from "~/content/identity";
import type { IdentitySettings } from "~/settings/schema";
import { encodeContact } from "./obfuscate";

/** `identity`'s telephone, e-mail and WhatsApp, encoded (decision 001: no number as plain text in a page). */
export function encodedContactChannels(identity: IdentitySettings): string {
  const channels: ContactChannels = {
    phone: identity.phone,
    phoneDisplay: identity.phoneDisplay,
    email: identity.email,
    whatsapp: identity.whatsapp,
    whatsappDisplay: identity.whatsappDisplay,
  };
  return encodeContact(channels);
}
