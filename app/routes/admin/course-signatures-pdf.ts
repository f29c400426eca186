/**
 * `/admin/cours/:id/liste-signatures.pdf`: the attendance list a group
 * signs, one page per held date of the session or its series
 * (app/letters/certificate-pdf.server.ts), to hand to the organisation.
 * Shown in the browser, never cached.
 */
import { pdfAnswer } from "~/paper/layout.server";
import { data } from "react-router";
import { clockContext, dbContext } from "~/context.server";
import { idParam } from "~/desk/route-params.server";
import { signatureListOf } from "~/letters/certificates.server";
import { letterSender } from "~/letters/letters.server";
import { isoDateInZurich } from "~/utils/format";
import type { Route } from "./+types/course-signatures-pdf";

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const list = await signatureListOf(context.get(dbContext), id);
  if (!list || list.dates.length === 0) throw data(null, { status: 404 });
  // Loaded on the first list only (pdfkit).
  const { renderSignatureList } = await import("~/letters/certificate-pdf.server");
  const pdf = await renderSignatureList(list, {
    owner: await letterSender(context),
    today: isoDateInZurich(context.get(clockContext).now()),
  });
  return pdfAnswer(pdf, `liste-signatures-seance-${id}.pdf`);
}
