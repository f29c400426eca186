-- Quotes for groups (issue 31, item 2; docs/decisions/053-quotes-and-groups.md): made in the desk from a contact
-- request for a talk or workshop for a group. Amounts in centimes. "quote_numbers" holds the last number given in
-- each year (D-2026-001): taken under that row's lock in the transaction that writes the quote, never given twice.
-- The creditor (the owner's name and address) is copied into the quote when it is made, so a PDF printed later is
-- the same document. "expiré" is not stored: a sent quote whose validity date has passed (the injected clock).
-- An accepted quote makes a closed group session ("session_id") and later its invoice ("invoice_id"); its
-- "participants" are the names the organisation (its own link page) or the owner fills in. An accepted quote is
-- kept like the invoice it leads to (CO art. 958f); an erasure removes the e-mail, the telephone and the list.
CREATE TABLE "quote_numbers" (
	"year" integer PRIMARY KEY NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "quote_numbers_last" CHECK ("last" >= 1)
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"number" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
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
	"group_size" integer,
	"lines" jsonb NOT NULL,
	"total_centimes" integer NOT NULL,
	"issued_on" date NOT NULL,
	"valid_until" date NOT NULL,
	"course_id" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"duration_minutes" integer NOT NULL,
	"place_name" text NOT NULL,
	"place_address" text NOT NULL,
	"creditor" jsonb NOT NULL,
	"contact_id" bigint REFERENCES "contacts"("id") ON DELETE SET NULL,
	"session_id" bigint REFERENCES "course_sessions"("id") ON DELETE SET NULL,
	"invoice_id" bigint REFERENCES "invoices"("id") ON DELETE SET NULL,
	"participants" text[] DEFAULT '{}' NOT NULL,
	"sent_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotes_number_unique" UNIQUE ("number"),
	CONSTRAINT "quotes_year_sequence_unique" UNIQUE ("year", "sequence"),
	CONSTRAINT "quotes_status" CHECK ("status" in ('draft', 'sent', 'accepted', 'refused')),
	CONSTRAINT "quotes_total" CHECK ("total_centimes" > 0 and "total_centimes" <= 100000000),
	CONSTRAINT "quotes_valid" CHECK ("valid_until" >= "issued_on"),
	CONSTRAINT "quotes_group_size" CHECK ("group_size" is null or "group_size" between 1 and 300),
	CONSTRAINT "quotes_duration" CHECK ("duration_minutes" between 15 and 720)
);
--> statement-breakpoint
CREATE INDEX "quotes_email_idx" ON "quotes" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "quotes_phone_idx" ON "quotes" USING btree ("phone_e164");--> statement-breakpoint
-- A mail carrying a quote: its PDF is rendered from the quote when the mail is sent (no blob in the outbox).
ALTER TABLE "outbox" ADD COLUMN "quote_id" bigint REFERENCES "quotes"("id") ON DELETE SET NULL;--> statement-breakpoint
-- A closed group's session (made from an accepted quote): not listed on /cours, no public seats.
ALTER TABLE "course_sessions" ADD COLUMN "closed" boolean DEFAULT false NOT NULL;
