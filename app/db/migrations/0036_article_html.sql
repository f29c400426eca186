-- An article's HTML rendered when it is written, not at each page (decision 067, issue 34: a miss of
-- the article page spent 11-25 ms in the Markdown pipeline). "html_version" is the version of the
-- pipeline that rendered "html" (ARTICLE_HTML_VERSION, app/blog/articles.server.ts); 0: not rendered.
-- The rows already there are rendered by the server in the background at its next start.
ALTER TABLE "articles" ADD COLUMN "html" text;
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "html_version" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- A body changed without its HTML (a writer that does not render: a script, a hand-written UPDATE)
-- makes the row stale: the server renders it again instead of showing the old text.
CREATE FUNCTION articles_html_follows_body() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.body IS DISTINCT FROM OLD.body AND NEW.html IS NOT DISTINCT FROM OLD.html THEN
    NEW.html_version := 0;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER articles_html_follows_body BEFORE UPDATE OF "body" ON "articles"
  FOR EACH ROW EXECUTE FUNCTION articles_html_follows_body();
--> statement-breakpoint
-- Writing the HTML alone (the same page, rendered again) tells no render cache: the trigger of
-- migration 0012 now fires on an update of any other column only.
DROP TRIGGER articles_render_cache ON "articles";
--> statement-breakpoint
CREATE TRIGGER articles_render_cache AFTER INSERT OR DELETE OR TRUNCATE
  OR UPDATE OF "id", "slug", "title", "excerpt", "category", "author", "body", "icon", "color", "featured",
    "video", "read_time", "date", "updated", "published_at", "source_file", "source_hash", "edited_in_desk",
    "created_at", "updated_at"
  ON "articles" FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('articles');
