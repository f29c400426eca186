-- The render cache (server/render-cache.ts, docs/decisions/018-one-render-cache.md): a change to what a public
-- page shows is announced on the channel render_cache, with the page tag as payload, by the transaction that
-- makes it. NOTIFY is delivered at commit (never for a rolled-back change, and after the data is visible), once
-- per transaction and payload, to every server process listening. Statement-level triggers: one per statement,
-- whatever the number of rows (seats taken, a registration erased, a session edited, a letter sent).
CREATE FUNCTION render_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('render_cache', TG_ARGV[0]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER course_sessions_render_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "course_sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('courses');--> statement-breakpoint
CREATE TRIGGER course_registrations_render_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "course_registrations"
  FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('courses');--> statement-breakpoint
CREATE TRIGGER newsletter_letters_render_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "newsletter_letters"
  FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('letters');
