/**
 * The desk's form of the settings (`/admin/reglages`): each section's
 * fields, in the page's order, with their French labels and hints.
 */
import {
  HOURS_ROWS,
  PRICED_SERVICES,
  ZONE_CODES,
  type HoursRow,
  type PricedService,
  type SettingsSection,
  type ZoneCode,
} from "~/content/shapes";

/** A field of the desk's form: its name inside the section, its label, and how it is typed. */
export interface SettingsField {
  name: string;
  label: string;
  hint?: string;
  type?: "text" | "email" | "tel" | "url" | "time" | "date" | "number";
  inputMode?: "numeric" | "decimal" | "tel" | "email" | "url";
  autoComplete?: string;
  /** Empty is allowed (the field says « facultatif »). */
  optional?: boolean;
  /** Where on the page it belongs (a sub-heading of the section). */
  group?: string;
}

const HOURS_LABELS: Record<HoursRow, string> = { weekdays: "Lundi – vendredi", saturday: "Samedi", sunday: "Dimanche" };
const ZONE_LABELS: Record<ZoneCode, string> = { VD: "Vaud", GE: "Genève", FR: "Fribourg" };
const PRICE_LABELS: Record<PricedService, string> = {
  "small-group": "Cours en petit groupe (prix par séance)",
  "one-to-one-course": "Cours individuel (prix par heure)",
  "one-to-one-support": "Support individuel (prix par heure)",
};
/** The two providers the legal notice names, by field prefix. */
export const PROVIDERS = { hosting: "Hébergeur du site", mailProvider: "Fournisseur e-mail" } as const;

/** The fields of each section's form, in the page's order; each field's HTML name is `{section}-{name}`. */
export const SETTINGS_FIELDS: Record<SettingsSection, SettingsField[]> = {
  identity: [
    { name: "name", label: "Votre nom (prénom et nom)", autoComplete: "name" },
    {
      name: "businessName",
      label: "Raison de commerce",
      hint: "Telle qu’inscrite au registre du commerce, par exemple «\u00a0Jean Dupont, Formation informatique\u00a0».",
      autoComplete: "organization",
    },
    {
      name: "uid",
      label: "Numéro IDE",
      hint: "Par exemple CHE-123.456.789. Laissez vide si vous n’en avez pas.",
      optional: true,
    },
    { name: "street", label: "Rue et numéro", autoComplete: "address-line1", group: "Adresse postale" },
    {
      name: "postalCode",
      label: "NPA",
      inputMode: "numeric",
      autoComplete: "postal-code",
      group: "Adresse postale",
    },
    { name: "locality", label: "Localité", autoComplete: "address-level2", group: "Adresse postale" },
    {
      name: "phone",
      label: "Téléphone",
      hint: "Par exemple 021 555 12 34 ou +41 79 555 12 34.",
      type: "tel",
      inputMode: "tel",
      autoComplete: "tel",
      group: "Pour vous joindre",
    },
    {
      name: "email",
      label: "Adresse e-mail",
      type: "email",
      inputMode: "email",
      autoComplete: "email",
      group: "Pour vous joindre",
    },
    {
      name: "whatsapp",
      label: "Numéro WhatsApp",
      hint: "Souvent le même que votre natel.",
      type: "tel",
      inputMode: "tel",
      group: "Pour vous joindre",
    },
  ],
  hours: HOURS_ROWS.flatMap((row) => [
    { name: `${row}Opens`, label: "Ouverture", type: "time" as const, optional: true, group: HOURS_LABELS[row] },
    { name: `${row}Closes`, label: "Fermeture", type: "time" as const, optional: true, group: HOURS_LABELS[row] },
  ]),
  zones: ZONE_CODES.flatMap((code) => [
    {
      name: `${code}Towns`,
      label: "Localités",
      hint: "Séparées par des virgules, par exemple «\u00a0Lausanne, Montreux, Nyon\u00a0».",
      group: ZONE_LABELS[code],
    },
    {
      name: `${code}Coverage`,
      label: "Étendue",
      hint: "Par exemple «\u00a0Tout le canton\u00a0».",
      group: ZONE_LABELS[code],
    },
  ]),
  prices: PRICED_SERVICES.map((id) => ({
    name: id,
    label: PRICE_LABELS[id],
    hint: "En francs, par exemple 55 ou 62.50.",
    inputMode: "decimal" as const,
  })),
  legal: [
    {
      name: "lastUpdated",
      label: "Date de la dernière mise à jour des textes légaux",
      hint: "Mettez la date du jour quand vous changez vos coordonnées, vos prestataires ou les durées.",
      type: "date",
    },
    {
      name: "retentionMonths",
      label: "Durée de conservation des demandes (en mois)",
      hint: "Après le dernier échange; le site efface ensuite la demande.",
      type: "number",
      inputMode: "numeric",
      group: "Durées de conservation",
    },
    {
      name: "sentNotificationDays",
      label: "Durée de conservation des e-mails envoyés (en jours)",
      type: "number",
      inputMode: "numeric",
      group: "Durées de conservation",
    },
    {
      name: "logRetentionDays",
      label: "Durée de conservation du journal du serveur (en jours)",
      hint: "La même que celle réglée chez votre hébergeur.",
      type: "number",
      inputMode: "numeric",
      group: "Durées de conservation",
    },
    ...Object.entries(PROVIDERS).flatMap(([key, group]) => [
      { name: `${key}Name`, label: "Nom de l’entreprise", group },
      { name: `${key}Address`, label: "Adresse (une ligne)", group },
      { name: `${key}Website`, label: "Site web", hint: "Commençant par https://", type: "url" as const, group },
      {
        name: `${key}Country`,
        label: "Pays où les données sont traitées",
        hint: "Par exemple «\u00a0Suisse\u00a0».",
        group,
      },
    ]),
  ],
  courses: [
    {
      name: "offerHoldHours",
      label: "Durée pendant laquelle une place libérée est gardée (en heures)",
      hint: "Le temps que la personne suivante de la liste d’attente a pour répondre, par exemple 24. Jamais au-delà de 2 heures avant le début du cours.",
      type: "number",
      inputMode: "numeric",
    },
    {
      name: "goNoGoDays",
      label: "Décision de maintenir ou d’annuler un cours (en jours avant la première séance)",
      hint: "Ce jour-là, si un cours a moins d’inscrits que son minimum, le site vous prévient par e-mail et dans le bureau\u00a0; vous décidez de le maintenir ou de l’annuler. Par exemple 3.",
      type: "number",
      inputMode: "numeric",
    },
    {
      name: "cancelDeadlineHours",
      label: "Délai d’annulation en ligne (en heures avant la première séance)",
      hint: "Jusque-là, chacun peut annuler sa place par son lien\u00a0; ensuite, il vous appelle. Par exemple 48.",
      type: "number",
      inputMode: "numeric",
    },
  ],
  payment: [
    {
      name: "iban",
      label: "IBAN ou QR-IBAN de votre compte",
      hint: "Celui de vos factures, par exemple CH56 0483 5012 3456 7800 9 (en Suisse ou au Liechtenstein).",
      optional: true,
    },
  ],
};
