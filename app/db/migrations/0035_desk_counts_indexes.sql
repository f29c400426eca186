-- The desk at scale (issue 34; npm run bench:scale): every desk page's frame counts what is new
-- (app/desk/live.server.ts, deskSnapshot), and with 20,000 requests, 10,000 registrations and 10,000
-- subscribers those counts read every row (about 90, 45 and 40 ms on PGlite, on every desk page).
-- The requests by state (the frame's « nouveau » count; the inbox filtered by state, newest first).
CREATE INDEX "contacts_status_idx" ON "contacts" ("status", "created_at");
--> statement-breakpoint
-- The registrations made on the site by when: those since the owner last looked.
CREATE INDEX "course_registrations_web_created_idx" ON "course_registrations" ("created_at")
  WHERE "source" = 'web';
--> statement-breakpoint
-- The waiting lists: the desk's list of sessions counts each session's (it read every registration of each).
CREATE INDEX "course_registrations_waiting_idx" ON "course_registrations" ("session_id")
  WHERE "status" = 'waiting';
--> statement-breakpoint
-- The confirmed subscribers by when they confirmed: those since the owner last looked.
CREATE INDEX "newsletter_subscribers_confirmed_idx" ON "newsletter_subscribers" ("confirmed_at")
  WHERE "status" = 'confirmed';
--> statement-breakpoint
-- The subscribers newest first (the desk's list and its CSV), without sorting all of them for each page.
CREATE INDEX "newsletter_subscribers_created_idx" ON "newsletter_subscribers" ("created_at", "id");
