-- Issue 23. Callback requests ("Rappelez-moi", /rappel) are contact requests of their own kind: kind 'rappel',
-- no e-mail and no service asked, the half-days that suit (lundi-matin ... samedi-matin). Each request,
-- callback and course registration gets a code word (two common French words) that the owner says when he
-- calls back; rows stored before have none (null).
ALTER TABLE "contacts" ADD COLUMN "kind" text DEFAULT 'contact' NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "half_days" text[];--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "code_word" text;--> statement-breakpoint
ALTER TABLE "contacts" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ALTER COLUMN "service" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_kind_fields" CHECK (("kind" = 'contact' and "email" is not null and "service" is not null) or ("kind" = 'rappel' and "half_days" is not null));--> statement-breakpoint
ALTER TABLE "course_registrations" ADD COLUMN "code_word" text;
