/**
 * `/admin/cours/:id/lettres.pdf`: the letters for the post of a session's
 * registrants as one PDF (app/letters/letter-pdf.server.ts), shown in the
 * browser, never cached. `?inscription=` (several allowed): those
 * registrants; none: every confirmed registrant without e-mail.
 * `?fenetre=gauche`: the envelope's window on the left (right otherwise).
 * The page's form also sends `choix`: then no box ticked prints nothing.
 * Nothing to print (no one chosen has an address): back to the session
 * page, whose notice says who lacks one.
 */
import { pdfAnswer } from "~/paper/layout.server";
import { data, redirect } from "react-router";
import { clockContext, dbContext } from "~/context.server";
import { idParam } from "~/desk/route-params.server";
import { windowSide } from "~/letters/desk.server";
import { letterSender, lettersOf } from "~/letters/letters.server";
import { isoDateInZurich } from "~/utils/format";
import type { Route } from "./+types/course-letters-pdf";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const query = new URL(request.url).searchParams;
  const chosen = query.getAll("inscription").map(Number).filter(Number.isSafeInteger);
  // The page's form sends `choix` with its ticked boxes: none ticked is no one, not everyone without e-mail.
  if (query.has("choix") && chosen.length === 0) throw redirect(`/admin/cours/${id}?courrier=personne#courrier`);
  const found = await lettersOf(context.get(dbContext), id, chosen.length ? chosen : "no-email");
  if (!found) throw data(null, { status: 404 });
  if (found.letters.length === 0) throw redirect(`/admin/cours/${id}?courrier=vide#courrier`);
  // Loaded on the first letter only: pdfkit and its fonts stay out of the server's memory until then.
  const { renderLetters } = await import("~/letters/letter-pdf.server");
  const pdf = await renderLetters(found.letters, {
    side: windowSide(query.get("fenetre")),
    owner: await letterSender(context),
    today: isoDateInZurich(context.get(clockContext).now()),
  });
  return pdfAnswer(pdf, `lettres-seance-${id}.pdf`);
}
