/**
 * What the two exports of a person's data share (`/admin/personne.json`
 * and the page `/admin/personne/export`): the owner's guard, the person
 * the query names (`email`, `telephone`, optionally `personne` when people
 * share them), their rows (`exportOf` of the person registry, which the
 * route passes from app/features.server.ts), and one
 * audit line (`export`, with the format and the counts: no e-mail, no name,
 * no telephone).
 */
import type { AppLoadContext } from "react-router";
import { audit } from "./audit.server";
import { requireOwner } from "./guard.server";
import { personKeyOf, type PersonQuery } from "./person-query";
import type { PersonExport, PersonRegistry } from "./person-registry.server";
import type { PersonKey } from "./person-types";

/** The export asked for: what was typed, the key read from it, and the rows. */
export interface OwnerExport {
  query: PersonQuery & { person: PersonKey };
  exported: PersonExport;
}

/**
 * The rows the owner exports in `format` (`exportOf`: the registry's), audited.
 * @returns them, or a 400 answer (French text, not stored) without a readable e-mail or telephone.
 * @throws `requireOwner`'s answers (sign-in page, 401, 403); the driver's error.
 */
export async function ownerExport(
  request: Request,
  context: AppLoadContext,
  format: "json" | "html",
  exportOf: PersonRegistry["exportOf"],
): Promise<OwnerExport | Response> {
  const owner = await requireOwner(request, context);
  const params = new URL(request.url).searchParams;
  const query = personKeyOf(params);
  if (!query.person) {
    const problem =
      query.errors.email ?? query.errors.telephone ?? "Indiquez une adresse e-mail ou un numéro de téléphone.";
    return new Response(problem, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const exported = await exportOf(context.db!, query.person, params.getAll("personne"));
  await audit(
    context.db!,
    { actor: owner.userId, action: "export", details: { format, ...exported.counts } },
    context.logger,
  );
  return { query: { ...query, person: query.person }, exported };
}
