/**
 * What the blog gives the mechanisms (app/desk/feature.ts): its tables, none holding a visitor's data;
 * at each start, the repository's Markdown articles imported into the database (decision 023); a job
 * that renders again the articles whose stored HTML an older pipeline made (decision 067).
 */
import type { Feature } from "~/desk/feature";
import { articleHtmlJob } from "./html.server";
import { importArticleFiles } from "./store.server";

export const blogFeature: Feature = {
  name: "blog",
  person: {
    tables: [],
    otherTables: {
      articles: "the owner's blog articles (his own name as author)",
      article_share_images: "the share images of the owner's articles (category, title, date)",
    },
  },
  jobs: [articleHtmlJob],
  async atStart({ db, logger }) {
    const imported = await importArticleFiles(db, { logger });
    if (imported.added.length + imported.updated.length > 0)
      logger.info({ added: imported.added, updated: imported.updated }, "blog: article files imported");
  },
};
