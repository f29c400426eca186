-- Who a mail names (issue 24, item 5; docs/decisions/019-erasure-keeps-relatives.md): every outbox row lists the
-- people its subject or body names or whom it is sent to, as [{"name": "Marie Dupont", "email": "marie@…",
-- "phone": "+41791234567"}] (e-mail lower-cased, telephone in E.164, keys without a value left out), written with
-- the row (app/mail/enqueue.server.ts). The erasure finds by it the mails that name a person without being theirs
-- (the owner's notice naming the first on the waiting list). A registration whose registrant (the relative who
-- registered the attendee) was erased keeps the attendee's seat; booker_erased_at says when their data went.
ALTER TABLE "outbox" ADD COLUMN "named" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_named_idx" ON "outbox" USING gin ("named" jsonb_path_ops);--> statement-breakpoint
ALTER TABLE "course_registrations" ADD COLUMN "booker_erased_at" timestamp with time zone;--> statement-breakpoint
-- Rows written before: the recipient, the older rows' data, the request a notification is about.
UPDATE "outbox" SET "named" = "named" || jsonb_build_array(jsonb_build_object('email', lower("recipient")))
WHERE "recipient" IS NOT NULL;--> statement-breakpoint
UPDATE "outbox" SET "named" = "named" || jsonb_build_array(jsonb_build_object('email', lower("payload"->>'email')))
WHERE "payload"->>'email' IS NOT NULL;--> statement-breakpoint
UPDATE "outbox" AS o SET "named" = o."named" || jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
  'name', trim(c."first_name") || ' ' || trim(c."last_name"), 'email', lower(c."email"), 'phone', c."phone_e164")))
FROM "contacts" AS c WHERE o."contact_id" = c."id";--> statement-breakpoint
-- A registration's mails name its attendee; the owner's notice and the mails sent to the relative name the relative.
UPDATE "outbox" AS o SET "named" = o."named" || (
  SELECT coalesce(jsonb_agg(person), '[]'::jsonb) FROM "course_registrations" AS r
  CROSS JOIN LATERAL (VALUES
    (jsonb_strip_nulls(jsonb_build_object('name', trim(r."first_name") || ' ' || trim(r."last_name"),
      'email', lower(r."email"), 'phone', r."phone_e164"))),
    (CASE WHEN r."booker_first_name" IS NOT NULL
      AND (o."kind" = 'booking-owner-registration' OR lower(o."recipient") = lower(r."booker_email"))
      THEN jsonb_strip_nulls(jsonb_build_object('name', trim(r."booker_first_name") || ' ' || trim(coalesce(r."booker_last_name", '')),
        'email', lower(r."booker_email"), 'phone', r."booker_phone_e164")) END)
  ) AS people(person)
  WHERE o."id" = ANY (r."mail_ids") AND person IS NOT NULL)
WHERE EXISTS (SELECT 1 FROM "course_registrations" AS r WHERE o."id" = ANY (r."mail_ids"));--> statement-breakpoint
-- The owner's notice of a cancellation names the first on the waiting list as "Name, telephone".
UPDATE "outbox" AS o SET "named" = o."named" || (
  SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object('name', trim(r."first_name") || ' ' || trim(r."last_name"),
    'email', lower(r."email"), 'phone', r."phone_e164"))), '[]'::jsonb)
  FROM "course_registrations" AS r
  WHERE position(r."first_name" || ' ' || r."last_name" || ', ' || r."phone" IN o."text_body") > 0
    AND NOT o."id" = ANY (r."mail_ids"))
WHERE o."kind" = 'booking-owner-cancellation' AND o."text_body" IS NOT NULL;
