/**
 * `/admin/a-appeler/lettres.pdf`: the letters for the post of the people on
 * the call list « À appeler demain » (app/letters/call-list.server.ts), the
 * same letter as from their session's page, as one PDF shown in the
 * browser, never cached. `?inscription=` (several allowed): those of the
 * list; none: everyone on it with a postal address. The page's form also
 * sends `choix`: then no box ticked prints nothing. `?fenetre=gauche`: the
 * envelope's window on the left (right otherwise). Nothing to print: back
 * to the list, whose notice says why.
 */
import { redirect } from "react-router";
import { clockContext, dbContext } from "~/context.server";
import { callListLetters, currentCallList } from "~/letters/call-list.server";
import { windowSide } from "~/letters/desk.server";
import { letterSender } from "~/letters/letters.server";
import { pdfAnswer } from "~/paper/layout.server";
import { isoDateInZurich } from "~/utils/format";
import type { Route } from "./+types/call-list-letters-pdf";

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const chosen = query.getAll("inscription").map(Number).filter(Number.isSafeInteger);
  if (query.has("choix") && chosen.length === 0) throw redirect("/admin/a-appeler?courrier=personne#courrier");
  const letters = await callListLetters(
    context.get(dbContext),
    await currentCallList(context),
    chosen.length ? chosen : null,
  );
  if (letters.length === 0) throw redirect("/admin/a-appeler?courrier=vide#courrier");
  // Loaded on the first letter only: pdfkit and its fonts stay out of the server's memory until then.
  const { renderLetters } = await import("~/letters/letter-pdf.server");
  const pdf = await renderLetters(letters, {
    side: windowSide(query.get("fenetre")),
    owner: await letterSender(context),
    today: isoDateInZurich(context.get(clockContext).now()),
  });
  return pdfAnswer(pdf, "lettres-a-appeler.pdf");
}
