/**
 * Invoices (app/invoices/, docs/decisions/026-invoices-and-qr-bill.md; migration 0017).
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  date,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import { contacts } from "./contacts";
import { courseRegistrations } from "./courses";

// --- Invoices (app/invoices/, docs/decisions/026-invoices-and-qr-bill.md; migration 0017).

/** The last invoice number given in a year: taken under this row's lock, never given twice, never reused. */
export const invoiceNumbers = pgTable(
  "invoice_numbers",
  {
    year: integer("year").primaryKey(),
    last: integer("last").notNull(),
  },
  (table) => [check("invoice_numbers_last", sql`${table.last} >= 1`)],
);

/** One line of an invoice: what, how many (hours, lessons; up to two decimals), the unit price in centimes. */
export interface InvoiceLine {
  label: string;
  quantity: number;
  unitCentimes: number;
}

/**
 * The owner as an invoice shows them, copied into it when it was made (app/invoices/creditor.server.ts);
 * the address as the QR-bill's structured address (type "S") wants it.
 */
export interface InvoiceCreditor {
  /** The name on the invoice and the QR-bill (the business name, at most 70 characters). */
  name: string;
  street: string;
  buildingNumber: string | null;
  postalCode: string;
  locality: string;
  /** ISO 3166 two-letter code ("CH"). */
  country: string;
  /** IBAN or QR-IBAN, normalized (no spaces). */
  iban: string;
  /** Whether `iban` is a QR-IBAN (a QR reference is then required). */
  qrIban: boolean;
  /** The enterprise number (CHE-…) when there is one. */
  uid: string | null;
  email: string;
  phone: string;
  /** false: not subject to VAT (the default). */
  vatSubject: boolean;
  /** The VAT line of the invoice. */
  vatMention: string;
}

/**
 * An invoice: its number ("2026-001", `year` and `sequence`), the client (a
 * person or an organisation, with a postal address; e-mail and telephone to
 * send it), its lines and total in centimes, the dates (`issued_on`,
 * `due_on`, ISO dates), the QR-bill's reference (QRR or SCOR), the creditor
 * as it was then. States: `open`, `paid` (`paid_on`, `paid_by`: virement,
 * twint, especes), `cancelled` (keeps its number). Made from a registration
 * or a contact request (`registration_id`, `contact_id`, set null when those
 * are erased) or from scratch. Kept 10 years (CO art. 958f) even when its
 * client asks for erasure: the e-mail and telephone then go.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    year: integer("year").notNull(),
    sequence: integer("sequence").notNull(),
    number: text("number").notNull().unique("invoices_number_unique"),
    status: text("status").notNull().default("open"),
    /** person or organisation. */
    clientKind: text("client_kind").notNull(),
    clientName: text("client_name").notNull(),
    /** For an organisation: "à l’attention de" (a person's name); else null. */
    clientAttention: text("client_attention"),
    street: text("street").notNull(),
    buildingNumber: text("building_number"),
    postalCode: text("postal_code").notNull(),
    locality: text("locality").notNull(),
    country: text("country").notNull().default("CH"),
    email: text("email"),
    phone: text("phone"),
    phoneE164: text("phone_e164"),
    lines: jsonb("lines").$type<InvoiceLine[]>().notNull(),
    totalCentimes: integer("total_centimes").notNull(),
    issuedOn: date("issued_on", { mode: "string" }).notNull(),
    dueOn: date("due_on", { mode: "string" }).notNull(),
    reference: text("reference").notNull(),
    creditor: jsonb("creditor").$type<InvoiceCreditor>().notNull(),
    registrationId: bigint("registration_id", { mode: "number" }).references(() => courseRegistrations.id, {
      onDelete: "set null",
    }),
    contactId: bigint("contact_id", { mode: "number" }).references(() => contacts.id, { onDelete: "set null" }),
    paidOn: date("paid_on", { mode: "string" }),
    paidBy: text("paid_by"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true, mode: "string" }),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "string" }),
    remindedAt: timestamp("reminded_at", { withTimezone: true, mode: "string" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (table) => [
    unique("invoices_year_sequence_unique").on(table.year, table.sequence),
    index("invoices_email_idx").on(sql`lower(${table.email})`),
    index("invoices_phone_idx").on(table.phoneE164),
    index("invoices_status_due_idx").on(table.status, table.dueOn),
    check("invoices_status", sql`${table.status} in ('open', 'paid', 'cancelled')`),
    check("invoices_client_kind", sql`${table.clientKind} in ('person', 'organisation')`),
    check("invoices_total", sql`${table.totalCentimes} > 0 and ${table.totalCentimes} <= 100000000`),
    check(
      "invoices_paid",
      sql`(${table.status} = 'paid') = (${table.paidOn} is not null and ${table.paidBy} is not null)`,
    ),
    check("invoices_paid_by", sql`${table.paidBy} is null or ${table.paidBy} in ('virement', 'twint', 'especes')`),
    check("invoices_due", sql`${table.dueOn} >= ${table.issuedOn}`),
  ],
);
