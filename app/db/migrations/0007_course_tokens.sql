-- Course registrations' link tokens join the site's one mechanism (link_tokens, app/tokens/tokens.server.ts):
-- each stored hash moves there with its expiry, so links already sent in mails keep working. The hash is the
-- same SHA-256, written as link_tokens writes it (base64url, no padding) instead of hex; 32 bytes make 44
-- base64 characters, one line. Expired ones move too: the daily retention deletes them.
INSERT INTO "link_tokens" ("hash", "purpose", "subject", "expires_at", "created_at")
SELECT rtrim(translate(encode(decode("token_hash", 'hex'), 'base64'), '+/', '-_'), '='), 'course-registration', "id"::text, "token_expires_at", "created_at"
FROM "course_registrations"
WHERE "token_hash" IS NOT NULL AND "token_expires_at" IS NOT NULL
ON CONFLICT ("hash") DO NOTHING;--> statement-breakpoint
ALTER TABLE "course_registrations" DROP CONSTRAINT "course_registrations_token_hash_unique";--> statement-breakpoint
ALTER TABLE "course_registrations" DROP COLUMN "token_hash";--> statement-breakpoint
ALTER TABLE "course_registrations" DROP COLUMN "token_expires_at";
