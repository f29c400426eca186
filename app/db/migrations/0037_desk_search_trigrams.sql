-- The desk's searches at scale (issue 34; npm run bench:scale; decision 070). A search is « contains »
-- (LIKE '%…%'), which no B-tree index serves: with 20,000 requests and 10,000 subscribers each search
-- read every row. pg_trgm's GIN indexes answer a LIKE/ILIKE of 3 characters or more from the rows
-- holding its trigrams. pg_trgm is a trusted extension of PostgreSQL's contrib (Debian's postgresql
-- package ships it; the database's owner may create it); PGlite loads it at creation
-- (app/db/client.server.ts, `PGLITE_EXTENSIONS`). `fastupdate = off`: PGlite runs no autovacuum, so a
-- GIN index's pending list (new rows not yet merged, read one by one by every search) would grow to
-- its 4 MB bound and stay there; each insert updates the index itself instead.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- The inbox's search: the whole name and the e-mail as one lowered text (app/contact/requests.server.ts,
-- `requestFilter`: the same expression, or the index is not used).
CREATE INDEX "contacts_search_idx" ON "contacts"
  USING gin ((lower("first_name" || ' ' || "last_name" || chr(31) || coalesce("email", ''))) gin_trgm_ops)
  WITH (fastupdate = off);
--> statement-breakpoint
-- The subscribers' search by a part of the address (ILIKE).
CREATE INDEX "newsletter_subscribers_email_trgm_idx" ON "newsletter_subscribers" USING gin ("email" gin_trgm_ops)
  WITH (fastupdate = off);
--> statement-breakpoint
-- The articles' search by a part of the title (ILIKE).
CREATE INDEX "articles_title_trgm_idx" ON "articles" USING gin ("title" gin_trgm_ops)
  WITH (fastupdate = off);
--> statement-breakpoint
-- The inbox's list of example values still to replace reads the articles whose author or video may be
-- one (app/settings/placeholders.server.ts, `mayBeFictitious`: the same predicate, or the index is not
-- used): it read every article (5,000 at 5,000) on each visit of the inbox; now none, once replaced.
CREATE INDEX "articles_placeholders_idx" ON "articles" ("id")
  WHERE (("author" ilike '%exemple%' or "author" ilike '%example.%' or "author" ~ '^[+]?41'
    or "author" like '%0000%' or "author" like '%CHE-000.000.000%' or "author" like '%XXXXXXXXXXX%')
  OR ("video" ilike '%exemple%' or "video" ilike '%example.%' or "video" ~ '^[+]?41'
    or "video" like '%0000%' or "video" like '%CHE-000.000.000%' or "video" like '%XXXXXXXXXXX%'));
