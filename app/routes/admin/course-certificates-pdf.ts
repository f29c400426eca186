/**
 * `/admin/cours/:id/attestations.pdf`: the attendance certificates of a
 * session or of its series (app/letters/certificate-pdf.server.ts), one
 * page per person marked present at least once; `?inscription=`: that
 * person's only. Shown in the browser, never cached; none to print: back
 * to the session page.
 */
import { pdfAnswer } from "~/paper/layout.server";
import { data, redirect } from "react-router";
import { clockContext, dbContext } from "~/context.server";
import { idParam } from "~/desk/route-params.server";
import { certificatesOf } from "~/letters/certificates.server";
import { letterSender } from "~/letters/letters.server";
import { isoDateInZurich } from "~/utils/format";
import type { Route } from "./+types/course-certificates-pdf";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const chosen = new URL(request.url).searchParams.getAll("inscription").map(Number).filter(Number.isSafeInteger);
  const certificates = await certificatesOf(context.get(dbContext), id, chosen.length ? chosen : "all");
  if (!certificates) throw data(null, { status: 404 });
  if (certificates.length === 0) throw redirect(`/admin/cours/${id}?courrier=aucune-presence#courrier`);
  // Loaded on the first certificate only (pdfkit).
  const { renderCertificates } = await import("~/letters/certificate-pdf.server");
  const pdf = await renderCertificates(certificates, {
    owner: await letterSender(context),
    today: isoDateInZurich(context.get(clockContext).now()),
  });
  const name =
    certificates.length === 1 ? `attestation-${certificates[0]!.registrationId}` : `attestations-seance-${id}`;
  return pdfAnswer(pdf, `${name}.pdf`);
}
