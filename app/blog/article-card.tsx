/** An article card (home blog section, blog index, related articles): icon, category, title, excerpt, date, read time, link. */
import { CalendarCheck, CalendarDays, Clock } from "lucide-react";
import { Link } from "react-router";
import type { ArticleSummary } from "./types";
import { cn } from "~/utils/cn";
import { Icon } from "~/components/icon";
import { themeClasses } from "~/components/theme";
import { buttonVariants } from "~/components/ui/button";

/**
 * An article's card. `readMore` is the link's label ("Lire l’article",
 * `blogSection.readMore`), given by the page so that `app/content/home.ts`
 * stays out of the home page's JavaScript (decision 007).
 */
export function ArticleCard({
  article,
  readMore,
  headingLevel = 3,
}: {
  article: ArticleSummary;
  readMore: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="flex h-full flex-col rounded-3xl border border-line bg-white p-6 shadow-md">
      <ArticleBadges article={article} />
      <Heading className="mt-4 text-2xl font-bold">{article.title}</Heading>
      <p className="mt-3 flex-1 text-muted">{article.excerpt}</p>
      <ArticleDateline article={article} className="mt-4" />
      <Link
        to={`/blog/${article.slug}`}
        className={cn(buttonVariants({ variant: "outline" }), "mt-5 self-start")}
        aria-label={`${readMore} : ${article.title}`}
      >
        {readMore}
      </Link>
    </article>
  );
}

/** The article's icon and category badge. */
export function ArticleBadges({ article }: { article: ArticleSummary }) {
  const theme = themeClasses[article.color];
  return (
    // Large text (the card narrower than 10 rem): the category goes under the icon.
    <div className="@container">
      <div className="flex items-center gap-3 @max-[10rem]:flex-wrap">
        <span className={cn("inline-flex size-12 shrink-0 items-center justify-center rounded-xl", theme.softBg)}>
          <Icon name={article.icon} className={cn("size-7", theme.strongText)} />
        </span>
        <span className={cn("rounded-full px-3 py-1 text-lg font-semibold", theme.softBg, theme.strongText)}>
          {article.category}
        </span>
      </div>
    </div>
  );
}

/**
 * "15 novembre 2024 · 5 min de lecture", with an optional author; with the
 * author (the article's own page), also "Mis à jour le …" when the article
 * was revised (front matter `updated`).
 */
export function ArticleDateline({
  article,
  withAuthor = false,
  className,
}: {
  article: ArticleSummary;
  withAuthor?: boolean;
  className?: string;
}) {
  return (
    <p className={cn("flex flex-wrap gap-x-4 gap-y-1 text-lg text-muted", className)}>
      {withAuthor ? <span className="font-semibold text-ink">{article.author}</span> : null}
      <span className="inline-flex items-center gap-1">
        <CalendarDays aria-hidden="true" className="size-5" />
        <time dateTime={article.date}>{article.dateLabel}</time>
      </span>
      {withAuthor && article.updated ? (
        <span className="inline-flex items-center gap-1">
          <CalendarCheck aria-hidden="true" className="size-5" />
          <span>
            Mis à jour le <time dateTime={article.updated}>{article.updatedLabel}</time>
          </span>
        </span>
      ) : null}
      <span className="inline-flex items-center gap-1">
        <Clock aria-hidden="true" className="size-5" />
        {article.readTime} min de lecture
      </span>
    </p>
  );
}
