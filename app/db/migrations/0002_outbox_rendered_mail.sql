ALTER TABLE "outbox" ALTER COLUMN "payload" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "recipient" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "reply_to" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "text_body" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "html_body" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "not_before" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_contact_id_idx" ON "outbox" USING btree ("contact_id");--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_rendered_or_payload" CHECK ("outbox"."payload" is not null or ("outbox"."subject" is not null and "outbox"."text_body" is not null));