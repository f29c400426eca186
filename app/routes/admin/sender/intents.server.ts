/**
 * The intents of « Envoi des e-mails » (`/admin/envoi`), one function
 * each: `send-test` queues the owner's test mail (`queueSenderTest`) and
 * redirects (303) to the page with `?essai=envoye` (and the DKIM selector
 * the page showed), or answers 429 with the reason in French.
 */
import { data, redirect } from "react-router";
import { clockContext, dbContext, settingsContext, wakeOutboxContext } from "~/context.server";
import type { DeskIntentArgs } from "~/desk/intent.server";
import { isSelector } from "~/mail/sender-check.server";
import { queueSenderTest, SENDER_TESTS_PER_HOUR } from "~/mail/sender-test.server";
import { SENDER_PATH } from "./path";

/** What the page shows after a refused post. */
export type SenderAnswer = { message: string };

/** `send-test`: the owner's test mail queued, unless one is on its way or the hour's tests are spent. */
export async function sendTestIntent({ form, context }: DeskIntentArgs) {
  const settings = context.get(settingsContext);
  const outcome = await queueSenderTest(
    context.get(dbContext),
    context.get(clockContext).now(),
    `${settings.SITE_URL}${SENDER_PATH}`,
  );
  if (!outcome.queued)
    return data<SenderAnswer>(
      {
        message:
          outcome.reason === "pending"
            ? "Votre essai précédent n’est pas encore parti : attendez qu’il parte avant d’en demander un autre."
            : `Vous avez déjà demandé ${SENDER_TESTS_PER_HOUR} essais dans l’heure : réessayez un peu plus tard.`,
      },
      { status: 429 },
    );
  context.get(wakeOutboxContext)();
  const selector = String(form.get("selecteur") ?? "").trim();
  const query = new URLSearchParams({
    essai: "envoye",
    ...(selector && isSelector(selector) ? { selecteur: selector } : {}),
  });
  throw redirect(`${SENDER_PATH}?${query}`, { status: 303 });
}

/** An `intent` the page does not know. */
export const unknownIntent = () =>
  data<SenderAnswer>({ message: "Cette action n’est pas connue. Rechargez la page." }, { status: 400 });
