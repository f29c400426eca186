/** The contact channels from `app/content/identity.ts`, encoded for a loader to pass to the page. */
import { identity, type ContactChannels } from "~/content/identity";
import { encodeContact } from "./obfuscate";

export function encodedContactChannels(): string {
  const channels: ContactChannels = {
    phone: identity.phone,
    phoneDisplay: identity.phoneDisplay,
    email: identity.email,
    whatsapp: identity.whatsapp,
    whatsappDisplay: identity.whatsappDisplay,
  };
  return encodeContact(channels);
}
