-- Limits on what one person can book (issue 22 item 5, docs/decisions/028-limits-on-what-one-person-books.md).
-- "daily_salts": one random salt per day (Europe/Zurich), deleted after two days by the daily job: the keys made
-- with it (a client address's network, a recipient's e-mail) can then no longer be tied to anyone.
CREATE TABLE "daily_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
-- Mails written by public actions to one address on one day, counted by the address's key of the day
-- (sha256 of the salt and the lower-cased address), and those held back past MAILS_PER_RECIPIENT_PER_DAY.
CREATE TABLE "recipient_mail_days" (
	"day" date NOT NULL,
	"recipient_key" text NOT NULL,
	"queued" integer DEFAULT 0 NOT NULL,
	"held" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "recipient_mail_days_pk" PRIMARY KEY ("day", "recipient_key")
);
--> statement-breakpoint
-- The key of the day of the client address a registration was posted from (null: taken in the desk, or older).
ALTER TABLE "course_registrations" ADD COLUMN "client_key" text;
--> statement-breakpoint
CREATE INDEX "course_registrations_client_idx" ON "course_registrations" ("client_key") WHERE "client_key" IS NOT NULL;
