/**
 * The defaults of the owner's details (Réglages, « Vos coordonnées »: the
 * desk's values win once saved), and the header's brand, which stays here.
 * The shipped values are fictitious placeholders (example.com, the reserved
 * +41 00 numbers, the postcode 0000) that the desk lists until replaced; a
 * deployment may write its real ones here instead. The name, business name
 * and address appear on the legal pages (LCD art. 3 al. 1 let. s); the
 * telephone, e-mail and WhatsApp number reach pages only encoded (decision 001).
 */
import { brand } from "./brand";

export const identity = {
  /** The trainer's full name, shown in the guide section and the footer. */
  name: "Prénom Nom (exemple)",
  /** Short brand shown in the header, two lines (`brand.ts`: the one part the browser's files carry). */
  brand,
  /**
   * The business name: for a sole proprietorship (raison individuelle), the
   * family name, optionally with what the business does, exactly as entered
   * in the commercial register when it is registered.
   */
  businessName: "Prénom Nom (exemple), Formation & Assistance Informatique",
  /**
   * The enterprise identification number (IDE/UID, "CHE-123.456.789") when
   * the business has one, or `null`: the legal notice shows it only when set.
   */
  uid: "CHE-000.000.000 (exemple)" as string | null,
  /** Postal address, shown in clear on the legal pages (letters for the rights of the privacy notice go there). */
  address: {
    street: "Chemin de l’Exemple 1",
    postalCode: "0000",
    locality: "Localité (exemple)",
    country: "Suisse",
  },
  /** Telephone in international format, digits only after "+". */
  phone: "+41000000000",
  /** Telephone as shown to visitors. */
  phoneDisplay: "+41 00 000 00 00",
  email: "contact@example.com",
  /** WhatsApp number, international format without "+" or spaces (wa.me link). */
  whatsapp: "41000000000",
  whatsappDisplay: "+41 00 000 00 00",
} as const;

/** The contact channels, as the server passes them to the page. */
export interface ContactChannels {
  phone: string;
  phoneDisplay: string;
  email: string;
  whatsapp: string;
  whatsappDisplay: string;
}
