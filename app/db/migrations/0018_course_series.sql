-- Courses as series of dates, and attendance (issue 22, items 1 and 2; docs/decisions/027-course-series.md).
-- A series groups the dated sessions of one course sold together ("4 séances de 1h30"). A registration for a
-- series points at the series' first session (`session_id`, its anchor: the waiting list is read there) and
-- names the series; it takes its seats on every session of the series (each session's `seats_taken`, under
-- the sessions' row locks taken in id order, so the per-session check still holds whatever the concurrency).
CREATE TABLE "course_series" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"course_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "course_sessions" ADD COLUMN "series_id" bigint REFERENCES "course_series"("id") ON DELETE cascade;--> statement-breakpoint
CREATE INDEX "course_sessions_series_idx" ON "course_sessions" USING btree ("series_id", "id");--> statement-breakpoint
ALTER TABLE "course_registrations" ADD COLUMN "series_id" bigint REFERENCES "course_series"("id") ON DELETE cascade;--> statement-breakpoint
CREATE INDEX "course_registrations_series_idx" ON "course_registrations" USING btree ("series_id", "id");--> statement-breakpoint
-- Who came to which date: one row per registration and date once the owner ticked it (no row: not ticked yet).
CREATE TABLE "course_attendance" (
	"registration_id" bigint NOT NULL REFERENCES "course_registrations"("id") ON DELETE cascade,
	"session_id" bigint NOT NULL REFERENCES "course_sessions"("id") ON DELETE cascade,
	"state" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_attendance_pk" PRIMARY KEY ("registration_id", "session_id"),
	CONSTRAINT "course_attendance_state" CHECK ("state" in ('present', 'absent', 'excused'))
);
--> statement-breakpoint
CREATE INDEX "course_attendance_session_idx" ON "course_attendance" USING btree ("session_id");
