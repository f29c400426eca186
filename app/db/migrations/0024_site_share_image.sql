-- The site's share image made from the hero photo the owner uploaded (issue 33, item 13; decision 029): the card
-- every page without an image of its own names (og:image, twitter:image), drawn like public/og/site.png but with
-- the owner's photo, kept in the database so that every server process and every backup has it. "source" is the
-- hash of what it shows (the photo and the card's design), part of its address (/og/site/{source}.png). One row
-- for the photo in the hero slot; it goes with the photo, and when the slot is given back or filled again.
CREATE TABLE "site_share_images" (
	"picture_id" bigint PRIMARY KEY NOT NULL REFERENCES "pictures"("id") ON DELETE CASCADE,
	"source" text NOT NULL,
	"bytes" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Every page names the site's share image, made from the hero: a change of the hero slot is announced to the
-- render cache as a change of the whole site ("settings", like the owner's name in every footer), not only as
-- "pictures" (migration 0014), which drops the pages showing the slots.
CREATE FUNCTION site_pictures_hero_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF OLD.slot = 'hero' THEN
      PERFORM pg_notify('render_cache', 'settings');
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF NEW.slot = 'hero' THEN
      PERFORM pg_notify('render_cache', 'settings');
    END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER site_pictures_hero_render_cache AFTER INSERT OR UPDATE OR DELETE ON "site_pictures"
  FOR EACH ROW EXECUTE FUNCTION site_pictures_hero_notify();--> statement-breakpoint
CREATE TRIGGER site_pictures_truncate_render_cache AFTER TRUNCATE ON "site_pictures"
  FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('settings');
