-- Réglages (issue 21 item 1, decision 024): the owner's details, opening hours, zones, prices and legal settings,
-- changed from the desk. One row per section ("identity", "hours", "zones", "prices", "legal"), its value the
-- whole section as the desk validated it (app/settings/schema.ts); a section without a row is the content
-- files' default. Every change is announced to every process's render cache as "settings" (every page shows
-- the owner's name or telephone: the whole cache is dropped).
CREATE TABLE "site_settings" (
	"section" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER site_settings_render_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "site_settings"
  FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('settings');
