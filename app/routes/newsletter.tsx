/**
 * `/newsletter`: what the monthly letter is, how the double opt-in works,
 * the subscription box, and the last letters (`/newsletter/archives`).
 * `POST /newsletter` is the action of every subscription box (home page,
 * blog, articles, this page): the public action guards first
 * (app/guards/public-action.server.ts), then `requestSubscription`. The
 * answer is the same whether the address was known or not. Without
 * JavaScript, any box posts here and this page answers: an invalid address
 * shows in this page's box (its error summary, the field filled again), any other
 * answer above it.
 */
import { data, Link, useActionData, useLoaderData } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { newsletterBoxWords } from "~/home/content.server";
import { guardPublicAction } from "~/guards/public-action.server";
import { sentLetters } from "~/newsletter/letters.server";
import { NEWSLETTER_BODY_LIMIT_BYTES, NEWSLETTER_HONEYPOT } from "~/newsletter/fields";
import { subscribeSchema } from "~/newsletter/schema";
import { NewsletterBox, newsletterEmailId } from "~/newsletter/subscribe-box";
import { ErrorSummary } from "~/components/error-summary";
import { recipientCapFor } from "~/mail/recipient-cap.server";
import { requestSubscription } from "~/newsletter/subscriptions.server";
import type { SubscribeActionData } from "~/newsletter/types";
import { newsletterMessages } from "~/newsletter/words";
import { databaseFailure, unlessDatabaseDown } from "~/utils/database-down.server";
import { unavailableWords } from "~/utils/unavailable";
import { UnavailableNote } from "~/contact/unavailable-page";
import { formatDate } from "~/utils/format";
import { typesetAll } from "~/utils/typography";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import type { Route } from "./+types/newsletter";
import { cachedPage } from "~/utils/render-cache";
import { settingsContext, dbContext, loggerContext, wakeOutboxContext } from "~/context.server";

export async function loader({ context, request }: Route.LoaderArgs) {
  // The database down: 503, the French notice in place of the last letters, the box still there.
  const read = await unlessDatabaseDown(context, () => sentLetters(context.get(dbContext), { limit: 3 }));
  const letters = read.down ? [] : read.value;
  return data(
    {
      meta: pageMeta(context, request, {
        title: "Lettre d’information",
        description:
          "Une lettre par mois : des conseils pratiques et des mises en garde contre les arnaques du moment. Abonnement gratuit, désabonnement en un clic.",
      }),
      words: newsletterBoxWords(),
      page: typesetAll({
        intro:
          "Une fois par mois, je vous écris : des conseils pratiques pour votre ordinateur, votre tablette et votre téléphone, et des mises en garde contre les arnaques du moment. C’est gratuit, et un clic suffit pour vous désabonner.",
        steps: [
          "Vous saisissez votre adresse e-mail ci-dessous.",
          "Je vous envoie aussitôt un e-mail avec un lien de confirmation, valable 7 jours.",
          "Vous cliquez sur ce lien, puis sur « Confirmer ». Sans cette confirmation, vous ne recevez rien, et votre adresse est effacée après 30 jours.",
        ],
      }),
      letters: letters.map((letter) => ({
        slug: letter.slug,
        subject: letter.subject,
        date: formatDate(letter.sentAt.slice(0, 10)),
      })),
      unavailable: read.down,
    },
    read.down ? { status: 503 } : undefined,
  );
}

export const meta = loaderMeta;

/** Kept in the render cache (app/utils/render-cache.ts). */
export const handle = cachedPage({ tags: ["letters"] });

export async function action({ request, context }: Route.ActionArgs) {
  const reply = (status: SubscribeActionData["status"], message: string, httpStatus: number, email?: string) =>
    data<SubscribeActionData>({ status, message, email }, { status: httpStatus });
  const guard = await guardPublicAction(request, context, {
    name: "newsletter",
    bodyLimitBytes: NEWSLETTER_BODY_LIMIT_BYTES,
    honeypotField: NEWSLETTER_HONEYPOT,
  });
  if (guard.outcome === "too-large") return reply("too-large", newsletterMessages.tooLarge, 413);
  if (guard.outcome === "rate-limited") return reply("rate-limited", newsletterMessages.rateLimited, 429);
  if (guard.outcome === "spam") return reply("received", newsletterMessages.received, 200);
  const submission = parseWithZod(guard.formData, { schema: subscribeSchema });
  if (submission.status !== "success") {
    const typed = guard.formData.get("email");
    return reply("invalid", newsletterMessages.email, 400, typeof typed === "string" ? typed.slice(0, 254) : undefined);
  }
  const db = context.get(dbContext);
  try {
    const written = await db.transaction((tx) =>
      requestSubscription(tx, {
        ...submission.value,
        siteUrl: context.get(settingsContext).SITE_URL,
        mailCap: recipientCapFor(context),
      }),
    );
    if (written) context.get(wakeOutboxContext)();
    context.get(loggerContext).info({ source: submission.value.source }, "newsletter: subscription requested");
  } catch (error) {
    // The address typed is kept in the box; a database that does not answer is logged once per outage.
    if (await databaseFailure(context, error, "newsletter: could not store the request"))
      return reply("error", unavailableWords.form, 503, submission.value.email);
    return reply("error", newsletterMessages.saveError, 503, submission.value.email);
  }
  return reply("received", newsletterMessages.received, 200);
}

export default function Newsletter() {
  const { words, page, letters, unavailable } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const invalid = answer?.status === "invalid" ? answer : undefined;
  // An address the database could not store comes back in the box, with the message beside it.
  const kept = invalid ?? (answer?.status === "error" ? answer : undefined);
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-bold">Lettre d’information</h1>
      <p className="mt-5 text-xl text-ink">{page.intro}</p>
      <h2 className="mt-10 text-2xl font-bold">Comment s’abonner</h2>
      <ol className="mt-4 list-decimal space-y-2 pl-7 text-xl text-ink">
        {page.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {/* An invalid address shows in the box below, with its error summary. */}
      {unavailable ? <UnavailableNote /> : null}
      {answer && !kept ? (
        <p
          role={answer.status === "received" ? "status" : "alert"}
          className="mt-8 rounded-xl border-2 border-secondary bg-white p-4 text-xl text-ink"
        >
          {answer.message}
        </p>
      ) : null}
      <NewsletterBox
        newsletter={words}
        source="newsletter"
        headingLevel={2}
        pageAnswer={kept}
        summary={
          invalid ? (
            <ErrorSummary
              id="newsletter-newsletter-summary"
              headingLevel={3}
              className="mb-5"
              errors={[{ href: `#${newsletterEmailId("newsletter")}`, message: invalid.message }]}
            />
          ) : null
        }
      />
      <h2 className="mt-14 text-2xl font-bold">Les dernières lettres</h2>
      {unavailable ? (
        <p className="mt-4 text-xl text-ink">Les lettres s’afficheront ici dans quelques minutes.</p>
      ) : letters.length === 0 ? (
        <p className="mt-4 text-xl text-ink">La première lettre partira bientôt.</p>
      ) : (
        <ul className="mt-4 space-y-2 text-xl">
          {letters.map((letter) => (
            <li key={letter.slug}>
              <Link
                to={`/newsletter/archives/${letter.slug}`}
                className="font-semibold text-primary underline underline-offset-4"
              >
                {letter.subject}
              </Link>{" "}
              <span className="text-muted">({letter.date})</span>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-6 text-xl">
        <Link to="/newsletter/archives" className="font-semibold text-primary underline underline-offset-4">
          Toutes les lettres envoyées
        </Link>
      </p>
    </section>
  );
}
