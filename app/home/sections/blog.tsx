import { Link } from "react-router";
import type { ArticleSummary } from "~/blog/types";
import type { HomeContent } from "~/home/content.server";
import { ArticleCard } from "~/blog/article-card";
import { Section } from "~/components/section";
import { buttonVariants } from "~/components/ui/button";
import { NewsletterBox } from "~/newsletter/subscribe-box";

/** `#blog`: the three newest guides (the featured one first), read from the articles by the home loader. */
export function BlogSection({ content, articles }: { content: HomeContent["blog"]; articles: ArticleSummary[] }) {
  return (
    <Section id="blog" title={content.title} intro={content.intro}>
      <ul className="grid gap-8 lg:grid-cols-3">
        {articles.map((article) => (
          <li key={article.slug}>
            <ArticleCard article={article} readMore={content.readMore} />
          </li>
        ))}
      </ul>
      <p className="mt-10 text-center">
        <Link to="/blog" className={buttonVariants({ variant: "outline", size: "large" })}>
          Tous les articles du blog
        </Link>
      </p>
      <NewsletterBox newsletter={content.newsletter} source="home" />
    </Section>
  );
}
