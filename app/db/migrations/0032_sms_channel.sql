-- SMS as a channel of the outbox (issue 30 item 2, decision 051): a row is a mail or an SMS ("channel"; an SMS's
-- "recipient" is a mobile number in E.164, its "text_body" the message, its "subject" the desk's label), with the same
-- lease, retries, recipient cap and erasure as mails; "delivered_at" is when the provider's delivery receipt said the
-- telephone received it. A registration keeps whether the person agreed to an SMS reminder ("sms_consent"); an offer
-- of a freed seat may go by SMS.
ALTER TABLE "outbox" ADD COLUMN "channel" text DEFAULT 'mail' NOT NULL;
--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_channel" CHECK ("channel" in ('mail', 'sms'));
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "delivered_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "course_registrations" ADD COLUMN "sms_consent" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "course_offers" DROP CONSTRAINT "course_offers_channel";
--> statement-breakpoint
ALTER TABLE "course_offers" ADD CONSTRAINT "course_offers_channel" CHECK ("channel" in ('mail', 'sms', 'call'));
