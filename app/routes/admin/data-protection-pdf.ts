/**
 * `/admin/donnees.pdf`: the register of processing activities (LPD art. 12)
 * as a PDF (app/privacy/register-pdf.server.ts), to print or keep; shown in
 * the browser (inline), never cached.
 */
import { PROCESSINGS } from "~/features.server";
import { registerOf } from "~/privacy/register.server";
import { getSiteSettings } from "~/settings/site.server";
import { isoDateInZurich } from "~/utils/format";
import type { Route } from "./+types/data-protection-pdf";
import { clockContext } from "~/context.server";

export async function loader({ context }: Route.LoaderArgs) {
  const { controller, rows } = registerOf(PROCESSINGS, await getSiteSettings(context));
  const today = isoDateInZurich(context.get(clockContext).now());
  // Loaded on the first register asked for: pdfkit stays out of the server's start.
  const { renderRegisterPdf } = await import("~/privacy/register-pdf.server");
  return new Response(new Uint8Array(await renderRegisterPdf(controller, rows, today)), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="registre-traitements-${today}.pdf"`,
      "Cache-Control": "no-store",
    },
  });
}
