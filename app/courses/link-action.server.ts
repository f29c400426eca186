/**
 * The guards of a registration's own link pages (`/cours/inscription/{token}`,
 * `/cours/place/{token}`, and a group's `/groupe/{token}`, app/quotes/): the
 * booking's rate limit per address, a 4 KB body (`bodyLimitBytes` for a page
 * that posts more: a group's list of names) and its honeypot
 * (`guardPublicAction`). `linkIntent` gives the posted `intent` (null for a
 * filled honeypot) and the posted `form`, or the refusal to answer with: 413
 * for a body over the limit, 429 when rate-limited, each with its French
 * message.
 * @throws a 405 Response when the method is not POST (`guardPublicAction`).
 */
import { data } from "react-router";
import { guardPublicAction } from "~/guards/public-action.server";
import type { RequestContext } from "~/context.server";
import { BOOKING_HONEYPOT_FIELD } from "./schema";

export async function linkIntent(request: Request, context: RequestContext, { bodyLimitBytes = 4096 } = {}) {
  const guard = await guardPublicAction(request, context, {
    name: "booking",
    bodyLimitBytes,
    honeypotField: BOOKING_HONEYPOT_FIELD,
  });
  if (guard.outcome === "too-large")
    return { refused: data({ message: "Requête trop longue." }, { status: 413 }) } as const;
  if (guard.outcome === "rate-limited")
    return {
      refused: data(
        { message: "Trop de demandes en peu de temps. Veuillez patienter quelques minutes, ou appelez-moi." },
        { status: 429 },
      ),
    } as const;
  if (guard.outcome === "spam") return { intent: null, form: null } as const;
  return { intent: guard.formData.get("intent"), form: guard.formData } as const;
}
