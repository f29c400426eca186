/**
 * `/admin/devis/:id/devis.pdf`: a quote's PDF (app/quotes/pdf.server.ts),
 * to print for the post or to look at; shown in the browser (inline),
 * never cached.
 */
import { data } from "react-router";
import { clockContext, dbContext } from "~/context.server";
import { idParam } from "~/desk/route-params.server";
import { pdfAnswer } from "~/paper/layout.server";
import { getQuote, quoteFileName } from "~/quotes/quotes.server";
import { isoDateInZurich } from "~/utils/format";
import type { Route } from "./+types/quote-pdf";

export async function loader({ context, params }: Route.LoaderArgs) {
  const quote = await getQuote(context.get(dbContext), idParam(params.id));
  if (!quote) throw data(null, { status: 404 });
  // Loaded on the first PDF only: pdfkit and its fonts stay out of the server's memory until then.
  const { renderQuotePdf } = await import("~/quotes/pdf.server");
  const today = isoDateInZurich(context.get(clockContext).now());
  return pdfAnswer(await renderQuotePdf(quote, today), quoteFileName(quote));
}
