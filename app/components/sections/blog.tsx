/** `#blog`: three article cards linking to their pages, and the newsletter box. */
import { CalendarDays, Clock, Mail } from "lucide-react";
import { Link } from "react-router";
import { blogSection, blogTeasers } from "~/content/home";
import { cn } from "~/utils/cn";
import { formatDate } from "~/utils/format";
import { Icon } from "../icon";
import { Section } from "../section";
import { themeClasses } from "../theme";
import { buttonVariants } from "../ui/button";

export function BlogSection() {
  return (
    <Section id="blog" title={blogSection.title} intro={blogSection.intro}>
      <ul className="grid gap-8 lg:grid-cols-3">
        {blogTeasers.map((article) => {
          const theme = themeClasses[article.color];
          return (
            <li key={article.slug} className="flex flex-col rounded-3xl border border-line bg-white p-6 shadow-md">
              <div className="flex items-center gap-3">
                <span className={cn("inline-flex size-12 items-center justify-center rounded-xl", theme.softBg)}>
                  <Icon name={article.icon} className={cn("size-7", theme.strongText)} />
                </span>
                <span className={cn("rounded-full px-3 py-1 text-lg font-semibold", theme.softBg, theme.strongText)}>
                  {article.category}
                </span>
              </div>
              <h3 className="mt-4 text-2xl font-bold">{article.title}</h3>
              <p className="mt-3 flex-1 text-muted">{article.excerpt}</p>
              <p className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-lg text-muted">
                <span className="inline-flex items-center gap-1">
                  <CalendarDays aria-hidden="true" className="size-5" />
                  <time dateTime={article.date}>{formatDate(article.date)}</time>
                </span>
                <span className="inline-flex items-center gap-1">
                  <Clock aria-hidden="true" className="size-5" />
                  {article.readTime} min de lecture
                </span>
              </p>
              <Link
                to={`/blog/${article.slug}`}
                className={cn(buttonVariants({ variant: "outline" }), "mt-5 self-start")}
                aria-label={`${blogSection.readMore} : ${article.title}`}
              >
                {blogSection.readMore}
              </Link>
            </li>
          );
        })}
      </ul>
      <NewsletterBox />
    </Section>
  );
}

/**
 * The newsletter box. Subscriptions open with their own issue (double
 * opt-in); until then the form leads to a page that says so, and the
 * address typed is sent nowhere (the input has no `name`).
 */
export function NewsletterBox() {
  const { newsletter } = blogSection;
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
