/**
 * `/blog` and `/blog/page/{n}`: "Blog & Ressources", the three highlights,
 * "À la une" (the featured article and its video), "Tous les articles" (12
 * per page), the newsletter box. Every page is prerendered.
 */
import { BookOpen, ChevronLeft, ChevronRight, PlayCircle, ShieldCheck } from "lucide-react";
import { data, Link } from "react-router";
import { ArticleBadges, ArticleCard, ArticleDateline } from "~/blog/article-card";
import { NewsletterBox } from "~/newsletter/subscribe-box";
import { buttonVariants } from "~/components/ui/button";
import { VideoEmbed } from "~/blog/video-embed";
import { youtubeId } from "~/blog/articles.server";
import { articleCards, featuredCard, publishedCount, readArticles } from "~/blog/store.server";
import { ARTICLES_PER_PAGE, pageCount } from "~/blog/select";
import { pagesAround } from "~/components/pages";
import { cn } from "~/utils/cn";
import { blogWords } from "~/home/content.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import type { Route } from "./+types/blog";
import { cachedPage } from "~/utils/render-cache";

const highlights = [
  { Icon: BookOpen, title: "Guides détaillés", text: "Des explications pas à pas, avec des mots simples." },
  { Icon: PlayCircle, title: "Vidéos explicatives", text: "Pour voir les gestes avant de les faire vous-même." },
  { Icon: ShieldCheck, title: "Conseils sécurité", text: "Pour reconnaître les arnaques et protéger vos données." },
];

const description =
  "Guides pratiques pour seniors : sécurité sur Internet, intelligence artificielle, applications utiles en Suisse. Des conseils simples, pas à pas.";

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const page = params.page === undefined ? 1 : /^[1-9]\d*$/.test(params.page) ? Number(params.page) : NaN;
  const missing = () =>
    data(
      { meta: pageMeta(context, request, { title: "Page introuvable", description, errorPage: true }) },
      { status: 404 },
    );
  // Page 1 lives at /blog only: /blog/page/1 is not a page of its own.
  if (!Number.isSafeInteger(page) || params.page === "1") throw missing();
  // Only this page's cards, never a body (issue 34): the cost of a page does not grow with the archive.
  const shown = await readArticles(context, `blog:${page}`, async (db, now) => {
    const total = await publishedCount(db, now);
    if (page > pageCount(total)) return null;
    return {
      pages: pageCount(total),
      articles: await articleCards(db, now, { limit: ARTICLES_PER_PAGE, offset: (page - 1) * ARTICLES_PER_PAGE }),
      featured: page === 1 ? ((await featuredCard(db, now)) ?? null) : null,
    };
  });
  if (!shown) throw missing();
  const { pages, articles, featured } = shown;
  const words = blogWords();
  return {
    meta: pageMeta(context, request, {
      title: page > 1 ? `${words.title}, page ${page}` : words.title,
      description,
    }),
    words,
    page,
    pages,
    articles,
    featured: featured ? { ...featured, videoId: featured.video ? youtubeId(featured.video) : null } : null,
  };
}

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: ["articles"] });

const pageHref = (page: number) => (page === 1 ? "/blog" : `/blog/page/${page}`);

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { words, page, pages, articles, featured } = loaderData;
  return (
    <>
      <section
        aria-labelledby="blog-titre"
        className="bg-gradient-to-b from-primary-soft/60 to-white pt-12 pb-12 sm:pt-16"
      >
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="mx-auto max-w-3xl text-center">
            <h1 id="blog-titre" className="text-4xl font-bold sm:text-5xl">
              {words.title}
            </h1>
            <p className="mt-5 text-xl text-muted">{words.intro}</p>
          </div>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {highlights.map(({ Icon, title, text }) => (
              <li key={title} className="flex items-start gap-4 rounded-3xl bg-white p-6 shadow-md">
                <Icon aria-hidden="true" className="size-9 shrink-0 text-primary" />
                <div>
                  <p className="text-xl font-bold">{title}</p>
                  <p className="mt-1 text-muted">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      {featured ? (
        <section aria-labelledby="a-la-une" className="py-12">
          <div className="mx-auto max-w-7xl px-4 sm:px-6">
            <h2 id="a-la-une" className="text-3xl font-bold sm:text-4xl">
              À la une
            </h2>
            <div className="mt-8 grid grid-cols-1 items-center gap-8 rounded-3xl border border-line bg-white p-6 shadow-lg lg:grid-cols-2 lg:p-10">
              {featured.videoId ? <VideoEmbed videoId={featured.videoId} title={featured.title} /> : null}
              <div>
                <ArticleBadges article={featured} />
                <h3 className="mt-4 text-3xl font-bold">{featured.title}</h3>
                <p className="mt-3 text-xl text-muted">{featured.excerpt}</p>
                <ArticleDateline article={featured} withAuthor className="mt-4" />
                <Link
                  to={`/blog/${featured.slug}`}
                  className={cn(buttonVariants({ size: "large", leading: "text" }), "mt-6")}
                  aria-label={`${words.readMore}\u00a0: ${featured.title}`}
                >
                  {words.readMore}
                </Link>
              </div>
            </div>
          </div>
        </section>
      ) : null}

      <section aria-labelledby="tous-les-articles" className="py-12">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <h2 id="tous-les-articles" className="text-3xl font-bold sm:text-4xl">
            Tous les articles
            {pages > 1 ? (
              <span className="ml-3 text-xl font-semibold text-muted">{`page ${page} sur ${pages}`}</span>
            ) : null}
          </h2>
          <ul className="mt-8 grid gap-8 md:grid-cols-2 lg:grid-cols-3">
            {articles.map((article) => (
              <li key={article.slug}>
                <ArticleCard article={article} readMore={words.readMore} />
              </li>
            ))}
          </ul>
          {pages > 1 ? (
            <nav aria-label="Pages des articles" className="mt-10 flex flex-wrap items-center justify-center gap-3">
              {page > 1 ? (
                <Link to={pageHref(page - 1)} className={buttonVariants({ variant: "outline" })}>
                  <ChevronLeft aria-hidden="true" className="size-5" />
                  Articles plus récents
                </Link>
              ) : null}
              {pagesAround(page, pages).map((number, index) =>
                number === null ? (
                  <span key={`gap-${index}`} aria-hidden="true" className="px-1 text-xl text-muted">
                    …
                  </span>
                ) : (
                  <Link
                    key={number}
                    to={pageHref(number)}
                    aria-current={number === page ? "page" : undefined}
                    aria-label={`Page ${number}`}
                    className={buttonVariants({ variant: number === page ? "primary" : "ghost" })}
                  >
                    {number}
                  </Link>
                ),
              )}
              {page < pages ? (
                <Link to={pageHref(page + 1)} className={buttonVariants({ variant: "outline" })}>
                  Articles plus anciens
                  <ChevronRight aria-hidden="true" className="size-5" />
                </Link>
              ) : null}
            </nav>
          ) : null}
          <NewsletterBox newsletter={words.newsletter} source="blog" />
        </div>
      </section>
    </>
  );
}
