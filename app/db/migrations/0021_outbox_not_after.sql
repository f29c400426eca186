-- A mail that says something untrue past a time (a course reminder: « votre cours a lieu … » past the
-- lesson's start) is given up then instead of leaving late (issue 33, item 11).
ALTER TABLE "outbox" ADD COLUMN "not_after" timestamp with time zone;
