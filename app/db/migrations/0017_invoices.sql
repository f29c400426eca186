-- Invoices (issue 22, items 3 and 4; docs/decisions/026-invoices-and-qr-bill.md): made in the desk from a
-- registration, a contact request or from scratch. Amounts are in centimes. "invoice_numbers" holds the last
-- number given in each year: a number is taken under that row's lock in the transaction that writes the invoice,
-- so it is never given twice and never reused (a cancelled invoice keeps its number). The creditor (name, address,
-- IBAN, VAT mention) is copied into the invoice when it is made: a PDF printed again later is the same document.
-- The client's name and postal address are part of the accounting record (CO art. 958f: kept 10 years); the
-- e-mail and telephone only serve to send it, and an erasure of the person removes them.
CREATE TABLE "invoice_numbers" (
	"year" integer PRIMARY KEY NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "invoice_numbers_last" CHECK ("last" >= 1)
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"number" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"client_kind" text NOT NULL,
	"client_name" text NOT NULL,
	"client_attention" text,
	"street" text NOT NULL,
	"building_number" text,
	"postal_code" text NOT NULL,
	"locality" text NOT NULL,
	"country" text DEFAULT 'CH' NOT NULL,
	"email" text,
	"phone" text,
	"phone_e164" text,
	"lines" jsonb NOT NULL,
	"total_centimes" integer NOT NULL,
	"issued_on" date NOT NULL,
	"due_on" date NOT NULL,
	"reference" text NOT NULL,
	"creditor" jsonb NOT NULL,
	"registration_id" bigint REFERENCES "course_registrations"("id") ON DELETE SET NULL,
	"contact_id" bigint REFERENCES "contacts"("id") ON DELETE SET NULL,
	"paid_on" date,
	"paid_by" text,
	"cancelled_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_number_unique" UNIQUE ("number"),
	CONSTRAINT "invoices_year_sequence_unique" UNIQUE ("year", "sequence"),
	CONSTRAINT "invoices_status" CHECK ("status" in ('open', 'paid', 'cancelled')),
	CONSTRAINT "invoices_client_kind" CHECK ("client_kind" in ('person', 'organisation')),
	CONSTRAINT "invoices_total" CHECK ("total_centimes" > 0 and "total_centimes" <= 100000000),
	CONSTRAINT "invoices_paid" CHECK (("status" = 'paid') = ("paid_on" is not null and "paid_by" is not null)),
	CONSTRAINT "invoices_paid_by" CHECK ("paid_by" is null or "paid_by" in ('virement', 'twint', 'especes')),
	CONSTRAINT "invoices_due" CHECK ("due_on" >= "issued_on")
);
--> statement-breakpoint
CREATE INDEX "invoices_email_idx" ON "invoices" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "invoices_phone_idx" ON "invoices" USING btree ("phone_e164");--> statement-breakpoint
CREATE INDEX "invoices_status_due_idx" ON "invoices" USING btree ("status", "due_on");--> statement-breakpoint
-- A mail carrying an invoice: its PDF is rendered from the invoice when the mail is sent (no blob in the outbox).
ALTER TABLE "outbox" ADD COLUMN "invoice_id" bigint REFERENCES "invoices"("id");
