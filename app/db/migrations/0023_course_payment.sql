-- How a course is paid (issue 33, item 3; docs/decisions/035-how-courses-are-paid.md). The owner chooses per
-- session (a series: the same on each of its dates): 'sur-place' (on the day, cash or TWINT; every existing
-- session), 'facture' (by invoice), 'au-choix' (the person chooses when booking). A registration keeps how it
-- pays ('sur-place' for every existing one) and, paid by invoice, the postal address the invoice goes to
-- (personal data: exported and erased with the registration). Columns added with their defaults: a previous
-- release still running on the migrated database writes rows that read as paid on site.
ALTER TABLE "course_sessions" ADD COLUMN "payment" text DEFAULT 'sur-place' NOT NULL;--> statement-breakpoint
ALTER TABLE "course_sessions" ADD CONSTRAINT "course_sessions_payment" CHECK ("payment" in ('sur-place', 'facture', 'au-choix'));--> statement-breakpoint
ALTER TABLE "course_registrations" ADD COLUMN "pays_by" text DEFAULT 'sur-place' NOT NULL;--> statement-breakpoint
ALTER TABLE "course_registrations" ADD COLUMN "postal_street" text;--> statement-breakpoint
ALTER TABLE "course_registrations" ADD COLUMN "postal_code" text;--> statement-breakpoint
ALTER TABLE "course_registrations" ADD COLUMN "postal_locality" text;--> statement-breakpoint
ALTER TABLE "course_registrations" ADD CONSTRAINT "course_registrations_pays_by" CHECK ("pays_by" in ('sur-place', 'facture'));
