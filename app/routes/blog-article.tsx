/**
 * `/blog/{slug}`: one article (spec "/blog/{slug}"): back link, icon,
 * category, title, excerpt, author, date, read time, video, body and up to
 * two "Articles similaires". An unknown slug answers 404 with "Article non
 * trouvé". Articles come from the database (app/blog/store.server.ts).
 */
import { ArrowLeft } from "lucide-react";
import { isRouteErrorResponse, Link } from "react-router";
import { ArticleCard } from "~/blog/article-card";
import { ArticleView } from "~/blog/article-view";
import { youtubeId } from "~/blog/articles.server";
import { publishedArticle, readArticles, relatedCards } from "~/blog/store.server";
import { blogWords } from "~/home/content.server";
import { loaderMeta } from "~/seo/meta";
import { notFound, pageMeta } from "~/seo/page-meta.server";
import { articleShareImage } from "~/seo/share-image.server";
import { articleStructuredData } from "~/seo/structured-data.server";
import { NewsletterBox } from "~/newsletter/subscribe-box";
import { UnavailablePage } from "~/contact/unavailable-page";
import type { Route } from "./+types/blog-article";
import { cachedPage } from "~/utils/render-cache";
import { settingsContext } from "~/context.server";

export async function loader({ params, context, request }: Route.LoaderArgs) {
  // This article's body and two cards, never the others' bodies (issue 34).
  const shown = await readArticles(context, `article:${params.slug}`, async (db, now) => {
    const article = await publishedArticle(db, now, params.slug);
    return article ? { article, related: await relatedCards(db, now, article) } : null;
  });
  if (!shown) {
    throw notFound(context, request, {
      title: "Article non trouvé",
      description: "L’article que vous recherchez n’existe pas.",
    });
  }
  const { article, related } = shown;
  const shareImage = articleShareImage(article);
  return {
    meta: pageMeta(context, request, {
      title: article.title,
      description: article.excerpt,
      image: shareImage,
      article: { publishedTime: article.date, section: article.category },
      structuredData: articleStructuredData(article, context.get(settingsContext).SITE_URL, shareImage),
    }),
    article: { ...article, videoId: article.video ? youtubeId(article.video) : null },
    related,
    readMore: blogWords().readMore,
    newsletter: blogWords().newsletter,
  };
}

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: ["articles"] });

function BackLink() {
  return (
    <Link
      to="/blog"
      className="inline-flex min-h-12 items-center gap-2 rounded-lg font-semibold text-primary underline-offset-4 hover:underline"
    >
      <ArrowLeft aria-hidden="true" className="size-5" />
      Retour au blog
    </Link>
  );
}

export default function BlogArticle({ loaderData }: Route.ComponentProps) {
  const { article, related } = loaderData;
  return (
    <>
      <article className="mx-auto max-w-3xl px-4 pt-8 pb-12 sm:px-6 sm:pt-12">
        <BackLink />
        <ArticleView article={article}>
          <NewsletterBox newsletter={loaderData.newsletter} source="article" headingLevel={2} />
        </ArticleView>
      </article>
      {related.length > 0 ? (
        <section aria-labelledby="articles-similaires" className="bg-cream py-12">
          <div className="mx-auto max-w-5xl px-4 sm:px-6">
            <h2 id="articles-similaires" className="text-3xl font-bold">
              Articles similaires
            </h2>
            <ul className="mt-8 grid gap-8 md:grid-cols-2">
              {related.map((other) => (
                <li key={other.slug}>
                  <ArticleCard article={other} readMore={loaderData.readMore} />
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 503) return <UnavailablePage />;
  if (!isRouteErrorResponse(error) || error.status !== 404) throw error;
  return (
    <div className="mx-auto max-w-3xl px-4 py-24 text-center sm:px-6">
      <h1 className="text-4xl font-bold">Article non trouvé</h1>
      <p className="mt-5 text-xl text-muted">L’article que vous recherchez n’existe pas.</p>
      <div className="mt-8">
        <BackLink />
      </div>
    </div>
  );
}
