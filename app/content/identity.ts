/**
 * Who runs the site and how to reach them.
 *
 * FIRST THING TO CHANGE: every value below is a fictitious placeholder
 * (example.com addresses, the reserved Swiss test number +41 00 ...). Put
 * the real name, telephone, e-mail and WhatsApp number here; the whole site
 * reads them from this file.
 *
 * The telephone, e-mail and WhatsApp number are read only by route loaders
 * (server side), which pass them to the page encoded, so that they appear in
 * no prerendered HTML and no JavaScript file as plain text.
 */
export const identity = {
  /** The trainer's full name, shown in the guide section and the footer. */
  name: "Prénom Nom (exemple)",
  /** Short brand shown in the header, two lines. */
  brand: { line1: "Formation & Assistance", line2: "Informatique" },
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
