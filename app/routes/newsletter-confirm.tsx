/**
 * `/newsletter/confirmer/:token`: the link of the confirmation mail. GET
 * shows a button (a scanner that follows the link confirms nothing); POST
 * confirms (`confirmSubscription`), once. A tampered, expired or used link
 * says so in French and offers to subscribe again.
 */
import { LinkPage, type LinkPageWords } from "~/newsletter/link-page";
import { linkAction } from "~/newsletter/link-action.server";
import { confirmSubscription, TOKEN_PURPOSES } from "~/newsletter/subscriptions.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import { readToken } from "~/tokens/tokens.server";
import type { Route } from "./+types/newsletter-confirm";
import { needsDatabase } from "~/utils/database-down.server";
import { dbContext } from "~/context.server";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  // The database down: the French 503 page, never « Ce lien n’est plus valable » (the link may be fine).
  const token = await needsDatabase(context, () =>
    readToken(context.get(dbContext), { purpose: TOKEN_PURPOSES.confirm, token: params.token }),
  );
  return {
    meta: pageMeta(context, request, {
      title: "Confirmer votre abonnement",
      description: "Confirmez votre abonnement à la lettre d’information.",
      noindex: true,
    }),
    valid: token !== null && token.usedAt === null,
  };
}

export const meta = loaderMeta;

export async function action({ request, context, params }: Route.ActionArgs) {
  return linkAction(request, context, {
    link: "confirm",
    success: "confirmed",
    perform: () => confirmSubscription(context.get(dbContext), params.token),
  });
}

const words: LinkPageWords = {
  ask: {
    title: "Confirmer votre abonnement",
    text: (
      <p>
        Il reste une étape&nbsp;: cliquez sur le bouton ci-dessous pour recevoir la lettre d’information chaque mois.
      </p>
    ),
    button: "Confirmer mon abonnement",
  },
  done: {
    title: "Abonnement confirmé",
    text: (
      <>
        <p>Merci&#8239;! Votre abonnement à la lettre d’information est confirmé.</p>
        <p>
          Vous recevrez la prochaine lettre au début du mois prochain, à cette adresse. Chaque lettre contient un lien
          pour vous désabonner en un clic.
        </p>
      </>
    ),
  },
  invalid: {
    title: "Ce lien n’est plus valable",
    text: (
      <>
        <p>
          Ce lien de confirmation n’est plus valable&nbsp;: il a déjà servi, il date de plus de 7 jours, ou il a été
          copié en partie.
        </p>
        <p>
          Si vous souhaitez recevoir la lettre d’information, abonnez-vous à nouveau sur la page{" "}
          <a href="/newsletter" className="font-semibold text-primary underline underline-offset-4">
            Lettre d’information
          </a>
          &nbsp;: vous recevrez un nouveau lien.
        </p>
      </>
    ),
  },
};

export default function NewsletterConfirm() {
  return <LinkPage success="confirmed" words={words} />;
}
