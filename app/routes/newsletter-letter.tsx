/**
 * `/newsletter/archives/:slug`: one sent letter, as its readers got it
 * (the body's HTML made from the owner's Markdown, no raw HTML). 404 for a
 * draft or an unknown address.
 */
import { data, Link, useLoaderData } from "react-router";
import { letterBySlug } from "~/newsletter/letters.server";
import { renderLetterBody } from "~/newsletter/letter.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import { formatDate } from "~/utils/format";
import type { Route } from "./+types/newsletter-letter";
import { cachedPage } from "~/utils/render-cache";
import { needsDatabase } from "~/utils/database-down.server";
import { dbContext } from "~/context.server";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const letter = await needsDatabase(context, () => letterBySlug(context.get(dbContext), params.slug));
  if (!letter) {
    throw data(
      {
        meta: pageMeta(context, request, {
          title: "Lettre introuvable",
          description: "Cette lettre d’information n’existe pas.",
          errorPage: true,
        }),
      },
      { status: 404 },
    );
  }
  return {
    meta: pageMeta(context, request, {
      title: letter.subject,
      description: `La lettre d’information du ${formatDate(letter.sentAt!.slice(0, 10))}.`,
    }),
    subject: letter.subject,
    date: formatDate(letter.sentAt!.slice(0, 10)),
    html: renderLetterBody(letter.body),
  };
}

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: ["letters"] });

export default function NewsletterLetter() {
  const { subject, date, html } = useLoaderData<typeof loader>();
  return (
    <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <p className="text-lg">
        <Link to="/newsletter/archives" className="font-semibold text-primary underline underline-offset-4">
          ← Toutes les lettres
        </Link>
      </p>
      <h1 className="mt-4 text-4xl font-bold">{subject}</h1>
      <p className="mt-2 text-lg text-muted">Envoyée le {date}</p>
      {/* The owner's Markdown, made into HTML on the server without raw HTML (letter.server.ts). */}
      <div className="mt-8" dangerouslySetInnerHTML={{ __html: html }} />
      <p className="mt-12">
        <Link to="/newsletter" className="font-semibold text-primary underline underline-offset-4">
          Recevoir les prochaines lettres
        </Link>
      </p>
    </article>
  );
}
