/**
 * The register of processing activities (« registre des activités de
 * traitement », LPD art. 12 al. 2) as the desk shows, prints and exports it:
 * the person registry's processings (`registry.processings`,
 * app/desk/person-registry.server.ts; each table names its own) with the
 * owner's Réglages (providers, their countries, periods) filled in.
 *
 * - `registerOf(entries, settings)` → the controller and one `RegisterRow` per
 *   processing, every field in French words;
 * - `registerCsv(rows)` → the CSV file's text (app/desk/csv.server.ts);
 * - `noticeSummary(entries, legal)` → what the privacy notice's summary
 *   lists (title, purpose, retention), from the same entries.
 * Never throws.
 */
import { spreadsheetCsv, type CsvColumn } from "~/desk/csv.server";
import type { ProcessingEntry } from "~/desk/person-registry.server";
import { COMMON_SAFEGUARDS, type RecipientKey } from "~/desk/processing";
import type { LegalSettings, SiteSettings } from "~/settings/schema";

/** One processing as the register writes it. */
export interface RegisterRow {
  key: string;
  title: string;
  purpose: string;
  people: string[];
  data: string[];
  /** The database tables that hold its data (SQL names). */
  tables: string[];
  retention: string;
  /** Each recipient with its role and country ("Hébergeur du site : Infomaniak SA (Suisse)"). */
  recipients: string[];
  /** The countries where the data is processed. */
  countries: string[];
  safeguards: string[];
}

/** The controller (LPD art. 12 al. 2 let. a), from the owner's identity in Réglages. */
export interface Controller {
  name: string;
  businessName: string;
  address: string;
  email: string;
}

/** What each provider of Réglages does for the site, as the register names it. */
const RECIPIENT_ROLES: Record<RecipientKey, string> = {
  hosting: "Hébergeur du site et de sa base de données",
  mailProvider: "Fournisseur e-mail (envoi des messages)",
};

/** The periods of the owner's legal settings. */
const periodsOf = (legal: LegalSettings) => ({
  retentionMonths: legal.retentionMonths,
  sentNotificationDays: legal.sentNotificationDays,
  logRetentionDays: legal.logRetentionDays,
});

/** The register for the owner's `settings` (identity and legal). */
export function registerOf(
  entries: readonly ProcessingEntry[],
  settings: Pick<SiteSettings, "identity" | "legal">,
): { controller: Controller; rows: RegisterRow[] } {
  const { identity, legal } = settings;
  const periods = periodsOf(legal);
  const rows = entries.map(({ processing, tables }): RegisterRow => {
    const providers = processing.recipients.map((key) => ({ role: RECIPIENT_ROLES[key], provider: legal[key] }));
    const countries = [...new Set(["Suisse", ...providers.map(({ provider }) => provider.country)])];
    const abroad = countries.filter((country) => country !== "Suisse");
    return {
      key: processing.key,
      title: processing.title,
      purpose: processing.purpose,
      people: [...processing.people],
      data: [...processing.data],
      tables,
      retention: processing.retention(periods),
      recipients: providers.map(({ role, provider }) => `${role} : ${provider.name} (${provider.country})`),
      countries,
      safeguards: [
        ...processing.safeguards,
        ...COMMON_SAFEGUARDS,
        ...(abroad.length
          ? [
              `transfert hors de Suisse (${abroad.join(", ")}) seulement vers un pays à protection adéquate selon le Conseil fédéral, sinon avec des clauses contractuelles types (art. 16 LPD)`,
            ]
          : []),
      ],
    };
  });
  const { street, postalCode, locality } = identity.address;
  return {
    controller: {
      name: identity.name,
      businessName: identity.businessName,
      address: `${street}, ${postalCode} ${locality}`,
      email: identity.email,
    },
    rows,
  };
}

/** A list as one cell: its items joined by " ; ". */
const joined = (items: readonly string[]) => items.join(" ; ");

/** The register's columns, in the order of LPD art. 12 al. 2. */
const REGISTER_COLUMNS: CsvColumn<RegisterRow>[] = [
  { label: "Traitement", value: (row) => row.title },
  { label: "Finalité", value: (row) => row.purpose },
  { label: "Personnes concernées", value: (row) => joined(row.people) },
  { label: "Données", value: (row) => joined(row.data) },
  { label: "Tables de la base", value: (row) => joined(row.tables) || "aucune (fichiers du journal)" },
  { label: "Conservation", value: (row) => row.retention },
  { label: "Destinataires", value: (row) => joined(row.recipients) },
  { label: "Pays", value: (row) => joined(row.countries) },
  { label: "Mesures de sécurité et garanties", value: (row) => joined(row.safeguards) },
];

/** The register as a CSV file's text, one line per processing. */
export const registerCsv = (rows: readonly RegisterRow[]) => spreadsheetCsv(REGISTER_COLUMNS, rows);

/** One processing as the privacy notice's summary lists it. */
export interface NoticeItem {
  title: string;
  purpose: string;
  retention: string;
}

/** What the privacy notice's summary lists, from the register's entries and the owner's legal settings. */
export function noticeSummary(entries: readonly ProcessingEntry[], legal: LegalSettings): NoticeItem[] {
  const periods = periodsOf(legal);
  return entries.map(({ processing }) => ({
    title: processing.title,
    purpose: processing.purpose,
    retention: processing.retention(periods),
  }));
}
