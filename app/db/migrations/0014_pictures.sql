-- Pictures uploaded in the desk (docs/decisions/023-articles-in-the-database.md, "Pictures"): kept in the database,
-- so that every server process and every backup has them. One row per picture (its description, the size of its
-- largest variant, a hash that names its files), one row per file made from it (AVIF and WebP at up to three
-- widths). "site_pictures" says which picture fills a slot of the home page (hero, portrait); its trigger tells the
-- render cache.
CREATE TABLE "pictures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"alt" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"original_bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "picture_files" (
	"picture_id" bigint NOT NULL REFERENCES "pictures"("id") ON DELETE CASCADE,
	"format" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" bytea NOT NULL,
	CONSTRAINT "picture_files_pk" PRIMARY KEY ("picture_id", "format", "width")
);
--> statement-breakpoint
CREATE TABLE "site_pictures" (
	"slot" text PRIMARY KEY NOT NULL,
	"picture_id" bigint NOT NULL REFERENCES "pictures"("id"),
	"alt" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER site_pictures_render_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "site_pictures"
  FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('pictures');
