/**
 * `/newsletter/desabonnement/:token`: the unsubscribe link of every letter
 * (also its `List-Unsubscribe` address, RFC 8058). GET shows one button and
 * changes nothing (link scanners); POST unsubscribes at once, without
 * sign-in: the button, or a mail client's one-click POST
 * (`List-Unsubscribe=One-Click`). Using it again changes nothing more.
 */
import { data, useActionData, useLoaderData } from "react-router";
import { guardPublicAction } from "~/guards/public-action.server";
import { LinkPage } from "~/newsletter/link-page";
import { NEWSLETTER_BODY_LIMIT_BYTES, NEWSLETTER_HONEYPOT } from "~/newsletter/schema";
import { isUnsubscribeTokenValid, unsubscribe } from "~/newsletter/subscriptions.server";
import { loaderMeta } from "~/seo/meta";
import { pageMeta } from "~/seo/page-meta.server";
import type { Route } from "./+types/newsletter-unsubscribe";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  return {
    meta: pageMeta(context, request, {
      title: "Se désabonner",
      description: "Se désabonner de la lettre d’information.",
      noindex: true,
    }),
    valid: await isUnsubscribeTokenValid(context.db!, params.token),
  };
}

export const meta = loaderMeta;

export async function action({ request, context, params }: Route.ActionArgs) {
  const guard = await guardPublicAction(request, context, {
    name: "newsletter-link",
    bodyLimitBytes: NEWSLETTER_BODY_LIMIT_BYTES,
    honeypotField: NEWSLETTER_HONEYPOT,
  });
  if (guard.outcome !== "accepted") return data({ outcome: "refused" as const }, { status: 429 });
  const outcome = await unsubscribe(context.db!, params.token);
  context.logger?.info({ outcome }, "newsletter: unsubscribe link used");
  return data({ outcome }, { status: outcome === "unsubscribed" ? 200 : 410 });
}

export default function NewsletterUnsubscribe() {
  const { valid } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  if (answer?.outcome === "unsubscribed") {
    return (
      <LinkPage
        title="Vous êtes désabonné(e)"
        done={
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
        }
      >
        {null}
      </LinkPage>
    );
  }
  if (!valid || answer) {
    return (
      <LinkPage title="Ce lien n’est pas valable">
        <p>
          Ce lien de désabonnement n’est pas valable&nbsp;: il a peut-être été copié en partie. Pour vous désabonner,
          utilisez le lien d’une lettre récente, ou écrivez-moi simplement&nbsp;: je le fais pour vous.
        </p>
      </LinkPage>
    );
  }
  return (
    <LinkPage title="Se désabonner" button="Me désabonner">
      <p>Cliquez sur le bouton ci-dessous pour ne plus recevoir la lettre d’information.</p>
    </LinkPage>
  );
}
