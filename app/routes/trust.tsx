/**
 * `/confiance` (issue 23 item 3): « Ce que je ne vous demanderai jamais »,
 * the trainer's promises, how to check a call (the code word, calling back
 * on the site's number) and what to do after a scam, with its sources.
 * Texts in `app/content/trust.ts`. Kept in the render cache: no database data.
 */
import { ShieldCheck } from "lucide-react";
import { trustPage } from "~/content/trust";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import { cachedPage } from "~/utils/render-cache";
import type { Route } from "./+types/trust";

export function loader({ context, request }: Route.LoaderArgs) {
  return {
    meta: pageMeta(context, request, {
      title: trustPage.title,
      description:
        "Jamais un mot de passe, jamais de paiement par cartes cadeaux : comment reconnaître mes appels et que faire après une arnaque.",
    }),
  };
}

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: [] });

const linkClass = "font-semibold text-primary underline underline-offset-4 break-words";

function Points({
  items,
}: {
  items: readonly { title: string; text: string; link?: { href: string; label: string } }[];
}) {
  return (
    <ul className="mt-5 flex flex-col gap-4">
      {items.map((item) => (
        <li key={item.title} className="rounded-2xl border-2 border-line bg-white p-5">
          <h3 className="text-xl font-bold text-ink first-letter:uppercase">{item.title}</h3>
          <p className="mt-2 text-lg text-ink">{item.text}</p>
          {item.link ? (
            <p className="mt-3 text-lg">
              <a href={item.link.href} className={linkClass}>
                {item.link.label}
              </a>
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export default function Trust() {
  const page = trustPage;
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <p className="flex items-center gap-3 text-lg font-semibold text-primary-strong">
        <ShieldCheck aria-hidden="true" className="size-8 shrink-0" />
        Confiance et sécurité
      </p>
      <h1 className="mt-3 text-4xl font-bold text-ink">{page.title}</h1>
      <p className="mt-4 text-xl text-ink">{page.intro}</p>

      {[
        { id: "jamais", title: page.neverTitle, items: page.never },
        { id: "verifier", title: page.checkTitle, items: page.check },
        { id: "apres", title: page.afterTitle, items: page.after },
      ].map((part) => (
        <section key={part.id} aria-labelledby={part.id} className="mt-12">
          <h2 id={part.id} className="text-3xl font-bold text-ink">
            {part.title}
          </h2>
          <Points items={part.items} />
        </section>
      ))}
      <p className="mt-6 text-lg">
        <a href="/rappel" className={linkClass}>
          Demander à être rappelé(e)
        </a>{" "}
        ·{" "}
        <a href="/questions" className={linkClass}>
          Questions fréquentes
        </a>
      </p>

      <section aria-labelledby="sources" className="mt-12">
        <h2 id="sources" className="text-2xl font-bold text-ink">
          {page.sourcesTitle}
        </h2>
        <ul className="mt-4 flex list-disc flex-col gap-2 pl-6 text-lg">
          {page.sources.map((source) => (
            <li key={source.href}>
              <a href={source.href} className={linkClass}>
                {source.label}
              </a>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
