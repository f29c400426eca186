/**
 * The intents of an offer's page (`/cours/place/{token}`), run after the
 * public-action guards: `accept` (« Je prends la place »: on success, a 303
 * to the registration's page with its new link) and `decline` (« Je ne
 * peux plus », or « Quitter la liste d'attente » once the offer is
 * closed). Answers `{ message }` in French: what happened, or why nothing
 * did (the offer expired, was withdrawn, was answered already); 404 for a
 * link no longer valid, 503 when the database fails.
 */
import { linkOptionsOf } from "./link-options.server";
import { data, redirect } from "react-router";
import { dbContext, loggerContext, wakeOutboxContext, type RequestContext } from "~/context.server";
import { databaseFailure } from "~/utils/database-down.server";
import { unavailableWords } from "~/utils/unavailable";
import { registrationPath } from "./links";
import { acceptOffer, declineOffer, type OfferAnswer } from "./offers.server";
import { CLOSED_OFFER_WORDS } from "./offer-rules";

/** The French answer to `answer`, with its status. */
function answerOf(answer: OfferAnswer) {
  switch (answer.outcome) {
    case "declined":
      return { message: "C’est noté : la place va à une autre personne. Merci de m’avoir répondu." };
    case "left":
      return { message: "C’est fait : vous n’êtes plus sur la liste d’attente. Merci de m’avoir prévenu." };
    case "too-late":
      return data({ message: "Le cours a déjà commencé : la place ne peut plus être prise." }, { status: 409 });
    case "not-found":
      return data({ message: "Ce lien n’est plus valable." }, { status: 404 });
    case "closed":
      return data({ message: CLOSED_OFFER_WORDS[answer.state] }, { status: 409 });
    case "accepted":
      return { message: "Votre inscription est confirmée. La confirmation part par e-mail." };
  }
}

/** `accept` or `decline` on the offer of link `token`. */
export async function answerOfferIntent(context: RequestContext, token: string, intent: "accept" | "decline") {
  try {
    const options = linkOptionsOf(context);
    const db = context.get(dbContext);
    const answer = intent === "accept" ? await acceptOffer(db, token, options) : await declineOffer(db, token, options);
    context.get(loggerContext).info({ intent, outcome: answer.outcome }, "booking: offer link used");
    if (answer.outcome === "accepted" || answer.outcome === "declined") context.get(wakeOutboxContext)();
    if (answer.outcome === "accepted" && answer.token) throw redirect(registrationPath(answer.token), 303);
    return answerOf(answer);
  } catch (error) {
    if (error instanceof Response) throw error;
    if (await databaseFailure(context, error, "booking: could not answer the offer"))
      return data({ message: unavailableWords.form }, { status: 503 });
    return data(
      { message: "Votre réponse n’a pas pu être enregistrée. Veuillez réessayer dans un instant, ou appelez-moi." },
      { status: 503 },
    );
  }
}
