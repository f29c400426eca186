/** What the blog gives the mechanisms (app/desk/feature.ts): its tables, none holding a visitor's data. */
import type { Feature } from "~/desk/feature";

export const blogFeature: Feature = {
  name: "blog",
  person: {
    tables: [],
    otherTables: {
      articles: "the owner's blog articles (his own name as author)",
      article_share_images: "the share images of the owner's articles (category, title, date)",
    },
  },
};
