-- The breach log (issue 32, item 3; LPD art. 24, OPDo art. 15 al. 4): what the owner documents of each breach of
-- data security. Categories and counts only, never a name; the retention job never deletes it (kept at least two
-- years after the notification to the FDPIC).
CREATE TABLE "data_breaches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"discovered_on" date NOT NULL,
	"occurred_on" date,
	"what_happened" text NOT NULL,
	"data_concerned" text NOT NULL,
	"people_concerned" text NOT NULL,
	"people_count" integer,
	"high_risk" boolean NOT NULL,
	"risk_assessment" text NOT NULL,
	"measures" text NOT NULL,
	"fdpic_told_on" date,
	"people_told_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_breaches_people_count" CHECK ("people_count" is null or "people_count" >= 0),
	CONSTRAINT "data_breaches_occurred" CHECK ("occurred_on" is null or "occurred_on" <= "discovered_on")
);
