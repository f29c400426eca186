-- A contact request for a talk or workshop for a group (service "group-talk", issue 24 item 10, decision 021):
-- the organisation, the commune where it would take place and the number of people. Null for other services.
ALTER TABLE "contacts" ADD COLUMN "organisation" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "commune" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "group_size" integer;
