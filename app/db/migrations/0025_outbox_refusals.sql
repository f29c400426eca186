-- Refusals understood (issue 32 item 1, decision 046): where a mail's last failure came ("recipient", "message",
-- "sender", "connection", "expired", "other") and the SMTP reply code, for the desk's words in French; when the
-- owner chose not to send a failed mail again (it leaves the desk's count of mails not delivered).
ALTER TABLE "outbox" ADD COLUMN "error_stage" text;
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "error_code" integer;
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "dismissed_at" timestamp with time zone;
--> statement-breakpoint
-- Reminders given up at their lesson's start before this migration: not a delivery problem for the owner to fix.
UPDATE "outbox" SET "error_stage" = 'expired' WHERE "failed_at" IS NOT NULL AND "last_error" LIKE 'expired:%';
--> statement-breakpoint
CREATE INDEX "outbox_undelivered_idx" ON "outbox" ("failed_at")
  WHERE "failed_at" IS NOT NULL AND "dismissed_at" IS NULL;
