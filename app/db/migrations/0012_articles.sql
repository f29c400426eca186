-- Blog articles live in the database (docs/decisions/023-articles-in-the-database.md): written in the desk, or
-- imported from app/content/blog/*.md at start. An article is public once "published_at" has passed (a future
-- "published_at" is a scheduled publication; NULL is a draft or an unpublished article).
CREATE TABLE "articles" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"excerpt" text NOT NULL,
	"category" text NOT NULL,
	"author" text NOT NULL,
	"body" text NOT NULL,
	"icon" text NOT NULL,
	"color" text NOT NULL,
	"featured" boolean DEFAULT false NOT NULL,
	"video" text,
	"read_time" integer NOT NULL,
	"date" text NOT NULL,
	"updated" text,
	"published_at" timestamp with time zone,
	"source_file" text,
	"source_hash" text,
	"edited_in_desk" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "articles_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE INDEX "articles_published_at_idx" ON "articles" USING btree ("published_at");
--> statement-breakpoint
CREATE TRIGGER articles_render_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "articles"
  FOR EACH STATEMENT EXECUTE FUNCTION render_cache_notify('articles');
