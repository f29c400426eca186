-- The public lists read a page of articles at a time, newest first (issue 34, item 3): the blog's pages, the home
-- page's cards, the feed, an article's related ones. This index gives them in that order, so that a page of 12
-- reads 12 rows of the index instead of sorting the whole archive.
CREATE INDEX "articles_listing_idx" ON "articles" USING btree ("date" DESC, "slug");
