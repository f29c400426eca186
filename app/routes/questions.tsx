/**
 * `/questions` (issue 23 item 4): « Questions fréquentes », 13 questions
 * seniors and their families ask, each answered in a few lines with links
 * (`app/content/faq.ts`), and the same list as `FAQPage` JSON-LD
 * (`faqStructuredData`), with the prices, towns and hours of the owner's
 * settings. Kept in the render cache.
 */
import { faqOf } from "~/content/faq";
import { getSiteSettings } from "~/settings/site.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import { faqStructuredData } from "~/seo/structured-data.server";
import { cachedPage } from "~/utils/render-cache";
import type { Route } from "./+types/questions";
import { settingsContext } from "~/context.server";

export async function loader({ context, request }: Route.LoaderArgs) {
  const faq = faqOf(await getSiteSettings(context));
  return {
    faq,
    meta: pageMeta(context, request, {
      title: "Questions fréquentes",
      description:
        "Prix, paiement, déplacements, ce qu’il faut apporter, cours en groupe ou individuel : les réponses aux questions les plus posées.",
      structuredData: faqStructuredData(faq, context.get(settingsContext).SITE_URL),
    }),
  };
}

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: [] });

export default function Questions({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <h1 className="text-4xl font-bold text-ink">Questions fréquentes</h1>
      <p className="mt-4 text-xl text-ink">
        Les questions que l’on me pose le plus souvent. Vous ne trouvez pas la vôtre&nbsp;?{" "}
        <a href="/rappel" className="font-semibold text-primary underline underline-offset-4">
          Demandez-moi de vous rappeler
        </a>
        .
      </p>
      <nav aria-labelledby="sommaire" className="mt-8 rounded-2xl bg-primary-soft/60 p-5">
        <h2 id="sommaire" className="text-xl font-bold text-ink">
          Les questions
        </h2>
        <ul className="mt-3 flex flex-col">
          {loaderData.faq.map((entry) => (
            <li key={entry.id}>
              <a
                href={`#${entry.id}`}
                className="inline-flex min-h-11 items-center text-lg text-primary-strong underline underline-offset-4"
              >
                {entry.question}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-10 flex flex-col gap-6">
        {loaderData.faq.map((entry) => (
          <section key={entry.id} id={entry.id} aria-labelledby={`${entry.id}-titre`} className="scroll-mt-4">
            <h2 id={`${entry.id}-titre`} className="text-2xl font-bold text-ink">
              {entry.question}
            </h2>
            {entry.answer.map((paragraph) => (
              <p key={paragraph} className="mt-3 text-lg text-ink">
                {paragraph}
              </p>
            ))}
            <ul className="mt-2 flex flex-wrap gap-x-6">
              {entry.links.map((link) => (
                <li key={link.href}>
                  <a
                    href={link.href}
                    className="inline-flex min-h-11 items-center text-lg font-semibold text-primary underline underline-offset-4"
                  >
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}
