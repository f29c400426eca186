/**
 * What the two exports of a person's data share (`/admin/personne.json`
 * and the page `/admin/personne/export`, both behind the desk's guard
 * middleware, which gives the owner): the person
 * the query names (`email`, `telephone`, optionally `personne` when people
 * share them), their rows (`exportOf` of the person registry, which the
 * route passes from app/features.server.ts), and one
 * audit line (`export`, with the format and the counts: no e-mail, no name,
 * no telephone).
 */
import { audit } from "./audit.server";
import { personKeyOf, type PersonQuery } from "./person-query";
import type { PersonExport, PersonRegistry } from "./person-registry.server";
import type { PersonKey } from "./person-types";
import { dbContext, loggerContext, ownerContext, type RequestContext } from "~/context.server";

/** The export asked for: what was typed, the key read from it, and the rows. */
export interface OwnerExport {
  query: PersonQuery & { person: PersonKey };
  exported: PersonExport;
}

/**
 * The rows the owner exports in `format` (`exportOf`: the registry's), audited.
 * @returns them, or a 400 answer (French text, not stored) without a readable e-mail or telephone.
 * @throws the driver's error.
 */
export async function ownerExport(
  request: Request,
  context: RequestContext,
  format: "json" | "html",
  exportOf: PersonRegistry["exportOf"],
): Promise<OwnerExport | Response> {
  const owner = context.get(ownerContext);
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
  const exported = await exportOf(context.get(dbContext), query.person, params.getAll("personne"));
  await audit(
    context.get(dbContext),
    { actor: owner.userId, action: "export", details: { format, ...exported.counts } },
    context.get(loggerContext),
  );
  return { query: { ...query, person: query.person }, exported };
}
