import { Mail } from "lucide-react";
import { Link } from "react-router";
import type { ArticleSummary } from "~/blog/types";
import type { HomeContent } from "~/home/content.server";
import { ArticleCard } from "~/blog/article-card";
import { Section } from "~/components/section";
import { buttonVariants } from "~/components/ui/button";

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
      <NewsletterBox newsletter={content.newsletter} />
    </Section>
  );
}

/**
 * The newsletter box. Until subscriptions open (with a double opt-in),
 * the form leads to `/newsletter`, which says so, and the address typed is
 * sent nowhere (the input has no `name`).
 */
export function NewsletterBox({ newsletter }: { newsletter: HomeContent["blog"]["newsletter"] }) {
  return (
    <div className="mx-auto mt-14 max-w-3xl rounded-3xl bg-secondary-soft p-6 text-center shadow-md sm:p-10">
      <Mail aria-hidden="true" className="mx-auto size-10 text-secondary-strong" />
      <h3 className="mt-3 text-2xl font-bold sm:text-3xl">{newsletter.title}</h3>
      <p className="mt-3 text-ink">{newsletter.text}</p>
      <form method="get" action="/newsletter" className="mt-6 text-left" aria-describedby="newsletter-note">
        <label htmlFor="newsletter-email" className="block font-semibold">
          Adresse e-mail
        </label>
        <div className="mt-2 flex flex-col gap-3 sm:flex-row">
          <input
            id="newsletter-email"
            type="email"
            autoComplete="email"
            placeholder={newsletter.placeholder}
            className="min-h-12 flex-1 rounded-xl border-2 border-muted bg-white px-4 text-lg text-ink placeholder:text-muted"
          />
          <button type="submit" className={buttonVariants({ variant: "secondary" })}>
            {newsletter.button}
          </button>
        </div>
      </form>
      <p id="newsletter-note" className="mt-3 text-lg text-ink">
        {newsletter.note}
      </p>
    </div>
  );
}
