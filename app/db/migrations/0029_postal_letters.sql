-- Letters for the post (issue 31, item 1; docs/decisions/050-paper-letters-and-certificates.md): each time the
-- owner marks a registration's letter as posted, one row with the day. It names no one: the name and the address
-- are the registration's (its postal_* columns, now also filled for a letter to someone paying on site), so a
-- letter goes with its registration (on delete cascade) and is found, exported and erased through it.
CREATE TABLE "postal_letters" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"registration_id" bigint NOT NULL,
	"sent_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "postal_letters" ADD CONSTRAINT "postal_letters_registration_id_course_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."course_registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "postal_letters_registration_idx" ON "postal_letters" USING btree ("registration_id","id");
