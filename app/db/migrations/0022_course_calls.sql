-- The « à appeler » list (issue 33, item 2): when the owner moves or cancels a date, each registration without
-- e-mail becomes one row here, on the page of the session that changed, until the owner ticks « appelé·e »
-- ("called_at"). The name and telephone are read from the registration (no personal data of its own: the row goes
-- with the registration). The desk's badges count the rows still to call, so a change is announced as theirs.
CREATE TABLE "course_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" bigint NOT NULL REFERENCES "course_sessions"("id") ON DELETE cascade,
	"registration_id" bigint NOT NULL REFERENCES "course_registrations"("id") ON DELETE cascade,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"called_at" timestamp with time zone,
	CONSTRAINT "course_calls_reason" CHECK ("reason" in ('moved', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX "course_calls_session_idx" ON "course_calls" USING btree ("session_id", "id");--> statement-breakpoint
CREATE INDEX "course_calls_registration_idx" ON "course_calls" USING btree ("registration_id");--> statement-breakpoint
CREATE INDEX "course_calls_pending_idx" ON "course_calls" USING btree ("session_id") WHERE "called_at" is null;--> statement-breakpoint
CREATE TRIGGER course_calls_desk_live AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "course_calls"
  FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('desk');
