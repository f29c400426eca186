/**
 * The one intent of a registration's page (`/cours/inscription/{token}`),
 * run after the public-action guards: `cancel`, the visitor's "Oui,
 * annuler". Frees the seat once (`cancelRegistration`); answers `{ message }`
 * in French: 409 once the course has begun or, for a confirmed seat, once
 * its cancellation deadline has passed (the owner's telephone to call), 404 for a link no longer valid,
 * 503 when the database fails (the French 503 page when it does not answer).
 */
import { linkOptionsOf } from "./link-options.server";
import { data } from "react-router";
import { dbContext, loggerContext, wakeOutboxContext, type RequestContext } from "~/context.server";
import { getSiteSettings } from "~/settings/site.server";
import { databaseFailure } from "~/utils/database-down.server";
import { unavailableWords } from "~/utils/unavailable";
import { recipientCapFor } from "~/mail/recipient-cap.server";
import { cancelRegistration } from "./cancel.server";

/** `cancel`: cancels the registration of `token`. */
export async function cancelByLinkIntent(context: RequestContext, token: string) {
  try {
    const result = await cancelRegistration(context.get(dbContext), token, {
      ...linkOptionsOf(context),
      mailCap: recipientCapFor(context),
    });
    context.get(loggerContext).info({ outcome: result }, "booking: cancellation link used");
    if (result === "cancelled") context.get(wakeOutboxContext)();
    if (result === "too-late") {
      return data(
        { message: "Le cours a déjà commencé : l’inscription ne peut plus être annulée en ligne." },
        { status: 409 },
      );
    }
    if (result === "past-deadline") {
      const { phoneDisplay } = (await getSiteSettings(context)).identity;
      return data(
        {
          message: `Le délai pour annuler en ligne est passé. Un empêchement\u00a0? Appelez-moi au ${phoneDisplay} : je m’en occupe.`,
        },
        { status: 409 },
      );
    }
    if (result === "not-found") return data({ message: "Ce lien n’est plus valable." }, { status: 404 });
    return { message: "Votre inscription est annulée. Merci de m’avoir prévenu." };
  } catch (error) {
    // The database down: the page's loader shows the French 503 page (an action that throws would lose the frame).
    if (await databaseFailure(context, error, "booking: could not cancel the registration"))
      return data({ message: unavailableWords.form }, { status: 503 });
    return data(
      { message: "L’annulation n’a pas pu être enregistrée. Veuillez réessayer dans un instant, ou appelez-moi." },
      { status: 503 },
    );
  }
}
