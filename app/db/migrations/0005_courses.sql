CREATE TABLE "course_registrations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" bigint NOT NULL,
	"status" text NOT NULL,
	"seats" integer NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"phone" text NOT NULL,
	"phone_e164" text,
	"email" text,
	"booker_first_name" text,
	"booker_last_name" text,
	"booker_phone" text,
	"booker_phone_e164" text,
	"booker_email" text,
	"message" text,
	"source" text DEFAULT 'web' NOT NULL,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"reminder_mail_ids" bigint[] DEFAULT '{}' NOT NULL,
	"mail_ids" bigint[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "course_registrations_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "course_registrations_status" CHECK ("course_registrations"."status" in ('confirmed', 'waiting', 'cancelled')),
	CONSTRAINT "course_registrations_seats" CHECK ("course_registrations"."seats" between 1 and 2)
);
--> statement-breakpoint
CREATE TABLE "course_sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"course_id" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"duration_minutes" integer NOT NULL,
	"place_name" text NOT NULL,
	"place_address" text NOT NULL,
	"place_access" text DEFAULT '' NOT NULL,
	"capacity" integer DEFAULT 8 NOT NULL,
	"minimum" integer DEFAULT 4 NOT NULL,
	"price_chf" integer NOT NULL,
	"seats_taken" integer DEFAULT 0 NOT NULL,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_sessions_seats" CHECK ("course_sessions"."seats_taken" >= 0 and "course_sessions"."seats_taken" <= "course_sessions"."capacity"),
	CONSTRAINT "course_sessions_capacity" CHECK ("course_sessions"."capacity" between 1 and 100 and "course_sessions"."minimum" >= 0)
);
--> statement-breakpoint
ALTER TABLE "course_registrations" ADD CONSTRAINT "course_registrations_session_id_course_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."course_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_registrations_session_idx" ON "course_registrations" USING btree ("session_id","id");--> statement-breakpoint
CREATE INDEX "course_registrations_email_idx" ON "course_registrations" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "course_registrations_booker_email_idx" ON "course_registrations" USING btree (lower("booker_email"));--> statement-breakpoint
CREATE INDEX "course_registrations_phone_idx" ON "course_registrations" USING btree ("phone_e164");--> statement-breakpoint
CREATE INDEX "course_registrations_booker_phone_idx" ON "course_registrations" USING btree ("booker_phone_e164");--> statement-breakpoint
CREATE INDEX "course_sessions_starts_idx" ON "course_sessions" USING btree ("starts_at");