-- Share images of articles (docs/decisions/029-share-images-made-on-the-server.md): made on the server when an
-- article is published (or when what it shows changes), kept in the database so that every server process and
-- every backup has them. "source" is the hash of what the image shows (title, category, date, icon, colour, and
-- the card's design): the article's page names the image by it, so a page never points at a stale image, and
-- the render cache needs no tag of its own (the page already follows the "articles" tag).
CREATE TABLE "article_share_images" (
	"article_id" bigint PRIMARY KEY NOT NULL REFERENCES "articles"("id") ON DELETE CASCADE,
	"source" text NOT NULL,
	"bytes" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
