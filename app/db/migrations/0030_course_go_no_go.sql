-- The go/no-go of a course (issue 30, item 3; decision 052): one row per group (a single session, or a series by its
-- anchor, its first session by id) once its go/no-go time passed: the first date it was checked for, the confirmed
-- seats and the minimum then, and what came of it: "met" (at or above the minimum: nothing to do), "below" (the owner
-- was told and must decide: the desk's badge counts these), "kept" (« La maintenir quand même »), "cancelled"
-- (« Annuler la session »), "lapsed" (the course began undecided). A new first date (a date moved or cancelled) is
-- checked again at its own go/no-go time. Names no one.
CREATE TABLE "course_go_no_go" (
	"session_id" bigint PRIMARY KEY NOT NULL REFERENCES "course_sessions"("id") ON DELETE cascade,
	"first_start" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"seats" integer NOT NULL,
	"minimum" integer NOT NULL,
	"state" text NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "course_go_no_go_state" CHECK ("state" in ('met', 'below', 'kept', 'cancelled', 'lapsed'))
);
--> statement-breakpoint
CREATE INDEX "course_go_no_go_below_idx" ON "course_go_no_go" USING btree ("session_id") WHERE "state" = 'below';--> statement-breakpoint
CREATE TRIGGER course_go_no_go_desk_live AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "course_go_no_go"
  FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('desk');
