/**
 * An article as its page shows it: badges, title, excerpt, author and date,
 * the video (loaded from YouTube only after a click) and the body. Used by
 * `/blog/{slug}` and by the desk's preview, so that the preview is the page.
 * `headingLevel` 1 on the page; 2 in the desk's preview (below its own h1).
 */
import type { ReactNode } from "react";
import { ArticleBadges, ArticleDateline } from "./article-card";
import type { ArticleSummary } from "./types";
import { VideoEmbed } from "./video-embed";

export function ArticleView({
  article,
  headingLevel = 1,
  children,
}: {
  article: ArticleSummary & { html: string; videoId: string | null };
  headingLevel?: 1 | 2;
  children?: ReactNode;
}) {
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <>
      <header className="mt-6">
        <ArticleBadges article={article} />
        <Heading className="mt-5 text-4xl font-bold sm:text-5xl">{article.title}</Heading>
        <p className="mt-5 text-xl text-muted">{article.excerpt}</p>
        <ArticleDateline article={article} withAuthor className="mt-5 border-b border-line pb-6" />
      </header>
      {article.videoId ? (
        <div className="mt-8">
          <VideoEmbed videoId={article.videoId} title={article.title} />
        </div>
      ) : null}
      <div
        className="prose prose-lg mt-8 max-w-none text-ink prose-headings:text-ink prose-p:text-ink prose-a:text-primary prose-blockquote:border-secondary prose-blockquote:text-ink prose-li:my-1 [&_*]:scroll-mt-24"
        dangerouslySetInnerHTML={{ __html: article.html }}
      />
      {children}
    </>
  );
}
