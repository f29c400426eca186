-- The call list carries every message that reaches no one otherwise (issue 30; decision 060): an offer of a freed seat
-- to a person without e-mail or SMS ("offer", with the offer it is about: the desk shows the hold's end), and a
-- reminder whose SMS the per-number daily cap held ("reminder"). "sms_held" says the line is there because the cap held
-- an SMS (the owner sees why the person was not texted). Names no one: personal data by its registration, as before.
ALTER TABLE "course_calls" DROP CONSTRAINT "course_calls_reason";
--> statement-breakpoint
ALTER TABLE "course_calls" ADD CONSTRAINT "course_calls_reason" CHECK ("reason" in ('moved', 'cancelled', 'offer', 'reminder'));
--> statement-breakpoint
ALTER TABLE "course_calls" ADD COLUMN "offer_id" bigint REFERENCES "course_offers"("id") ON DELETE cascade;
--> statement-breakpoint
ALTER TABLE "course_calls" ADD COLUMN "sms_held" boolean DEFAULT false NOT NULL;
