-- Offers of a freed seat (issue 30, item 1; decision 049): the first person of a waiting list is offered a freed
-- seat, held for her until "hold_until"; the row says whether she took it, declined, let it expire, or whether it was
-- withdrawn. One open offer per registration at most (the partial unique index); the expiry job finds the due ones by
-- "course_offers_due_idx". Names no one: the person is the registration's, and the row goes with it.
CREATE TABLE "course_offers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"registration_id" bigint NOT NULL REFERENCES "course_registrations"("id") ON DELETE cascade,
	"session_id" bigint NOT NULL REFERENCES "course_sessions"("id") ON DELETE cascade,
	"seats" integer NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"channel" text NOT NULL,
	"offered_at" timestamp with time zone NOT NULL,
	"hold_until" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" text,
	CONSTRAINT "course_offers_state" CHECK ("state" in ('open', 'accepted', 'declined', 'expired', 'withdrawn')),
	CONSTRAINT "course_offers_channel" CHECK ("channel" in ('mail', 'call')),
	CONSTRAINT "course_offers_seats" CHECK ("seats" between 1 and 2)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "course_offers_open_idx" ON "course_offers" USING btree ("registration_id") WHERE "state" = 'open';--> statement-breakpoint
CREATE INDEX "course_offers_session_idx" ON "course_offers" USING btree ("session_id", "id");--> statement-breakpoint
CREATE INDEX "course_offers_due_idx" ON "course_offers" USING btree ("hold_until") WHERE "state" = 'open';--> statement-breakpoint
CREATE TRIGGER course_offers_desk_live AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "course_offers"
  FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('desk');
