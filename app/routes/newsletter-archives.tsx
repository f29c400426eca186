/**
 * `/newsletter/archives`: every letter sent, newest first, so that a visitor
 * can read the last ones before subscribing (rendered on request: letters
 * are sent from the desk, after the build).
 */
import { Link, useLoaderData } from "react-router";
import { sentLetters } from "~/newsletter/letters.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import { formatDate } from "~/utils/format";
import type { Route } from "./+types/newsletter-archives";
import { cachedPage } from "~/utils/render-cache";
import { needsDatabase } from "~/utils/database-down.server";
import { dbContext } from "~/context.server";

export async function loader({ context, request }: Route.LoaderArgs) {
  const letters = await needsDatabase(context, () => sentLetters(context.get(dbContext)));
  return {
    meta: pageMeta(context, request, {
      title: "Les lettres d’information envoyées",
      description:
        "Toutes les lettres d’information envoyées : conseils pratiques et mises en garde contre les arnaques.",
    }),
    letters: letters.map((letter) => ({
      slug: letter.slug,
      subject: letter.subject,
      date: formatDate(letter.sentAt.slice(0, 10)),
    })),
  };
}

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: ["letters"] });

export default function NewsletterArchives() {
  const { letters } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-bold">Les lettres envoyées</h1>
      <p className="mt-5 text-xl text-ink">
        Chaque mois, une lettre avec des conseils pratiques et des mises en garde contre les arnaques.{" "}
        <Link to="/newsletter" className="font-semibold text-primary underline underline-offset-4">
          Recevoir les prochaines
        </Link>
      </p>
      {letters.length === 0 ? (
        <p className="mt-8 text-xl text-ink">
          Aucune lettre n’a encore été envoyée&nbsp;: la première partira bientôt.
        </p>
      ) : (
        <ul className="mt-8 space-y-4">
          {letters.map((letter) => (
            <li key={letter.slug} className="text-xl">
              <Link
                to={`/newsletter/archives/${letter.slug}`}
                className="font-semibold text-primary underline underline-offset-4"
              >
                {letter.subject}
              </Link>
              <span className="block text-lg text-muted">Envoyée le {letter.date}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
