-- The outbox's round (decision 059): with a letter's 10,000 mails due, giving up the expired rows and
-- claiming the unthrottled ones read every pending row (80 ms each on PGlite, the server's thread blocked).
-- The rows that can expire (reminders: not_after set), by when they do.
CREATE INDEX "outbox_expiring_idx" ON "outbox" ("not_after")
  WHERE "sent_at" IS NULL AND "failed_at" IS NULL AND "not_after" IS NOT NULL;
--> statement-breakpoint
-- The pending rows by kind, then age: a throttled kind's claim, and the others' (kind below or above each throttled one).
CREATE INDEX "outbox_pending_kind_idx" ON "outbox" ("kind", "id")
  WHERE "sent_at" IS NULL AND "failed_at" IS NULL;
