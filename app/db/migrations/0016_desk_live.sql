-- The live desk (app/desk/live.server.ts, docs/decisions/025-live-desk.md). What the desk's badges count is
-- announced on the render cache's channel with the payload "desk", by the transaction that changes it, through the
-- same function as the page tags (migration 0008): one channel, one listening connection per process. "desk_seen"
-- holds, per kind, when the owner last opened the page that lists it (no personal data): web registrations and
-- confirmed subscriptions after that moment are "new". Its rows start at this migration, so nothing made before
-- counts as new.
CREATE TABLE "desk_seen" (
	"kind" text PRIMARY KEY NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "desk_seen_kind" CHECK ("desk_seen"."kind" in ('registrations', 'subscriptions'))
);--> statement-breakpoint
INSERT INTO "desk_seen" ("kind") VALUES ('registrations'), ('subscriptions');--> statement-breakpoint
CREATE TRIGGER contacts_desk_live AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "contacts"
  FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('desk');--> statement-breakpoint
CREATE TRIGGER course_registrations_desk_live AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "course_registrations"
  FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('desk');--> statement-breakpoint
CREATE TRIGGER newsletter_subscribers_desk_live AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "newsletter_subscribers"
  FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('desk');--> statement-breakpoint
-- Per row: opening a list with nothing new in it updates no row and announces nothing.
CREATE TRIGGER desk_seen_desk_live AFTER UPDATE ON "desk_seen"
  FOR EACH ROW EXECUTE FUNCTION render_cache_notify('desk');
