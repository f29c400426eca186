/**
 * `/newsletter/desabonnement/:token`: the unsubscribe link of every letter
 * (also its `List-Unsubscribe` address, RFC 8058). GET shows one button and
 * changes nothing (link scanners); POST unsubscribes at once, without
 * sign-in: the button, or a mail client's one-click POST
 * (`List-Unsubscribe=One-Click`). Using it again changes nothing more.
 */
import { LinkPage, type LinkPageWords } from "~/newsletter/link-page";
import { linkAction } from "~/newsletter/link-action.server";
import { isUnsubscribeTokenValid, unsubscribe } from "~/newsletter/subscriptions.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import type { Route } from "./+types/newsletter-unsubscribe";
import { needsDatabase } from "~/utils/database-down.server";
import { dbContext } from "~/context.server";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  return {
    meta: pageMeta(context, request, {
      title: "Se désabonner",
      description: "Se désabonner de la lettre d’information.",
      noindex: true,
    }),
    valid: await needsDatabase(context, () => isUnsubscribeTokenValid(context.get(dbContext), params.token)),
  };
}

export const meta = loaderMeta;

export async function action({ request, context, params }: Route.ActionArgs) {
  return linkAction(request, context, {
    link: "unsubscribe",
    success: "unsubscribed",
    perform: () => unsubscribe(context.get(dbContext), params.token),
  });
}

const words: LinkPageWords = {
  ask: {
    title: "Se désabonner",
    text: <p>Cliquez sur le bouton ci-dessous pour ne plus recevoir la lettre d’information.</p>,
    button: "Me désabonner",
  },
  done: {
    title: "Vous êtes désabonné(e)",
    text: (
      <>
        <p>C’est fait&nbsp;: vous ne recevrez plus la lettre d’information.</p>
        <p>
          Vous avez changé d’avis&#8239;? Vous pouvez vous réabonner à tout moment sur la page{" "}
          <a href="/newsletter" className="font-semibold text-primary underline underline-offset-4">
            Lettre d’information
          </a>
          .
        </p>
      </>
    ),
  },
  invalid: {
    title: "Ce lien n’est pas valable",
    text: (
      <p>
        Ce lien de désabonnement n’est pas valable&nbsp;: il a peut-être été copié en partie. Pour vous désabonner,
        utilisez le lien d’une lettre récente, ou écrivez-moi simplement&nbsp;: je le fais pour vous.
      </p>
    ),
  },
};

export default function NewsletterUnsubscribe() {
  return <LinkPage success="unsubscribed" words={words} />;
}
