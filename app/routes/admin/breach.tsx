/**
 * `/admin/donnees/violations/nouvelle` and `/admin/donnees/violations/:id`:
 * a breach of the breach log, new or as recorded, in its form
 * (app/privacy/breach-form.tsx). The post records or changes it and its
 * audit line (`breach-recorded`, `breach-updated`: the id only), then goes
 * back to the log (303); bad input gets the French message beside each
 * field (400) and writes nothing. 404 for an id that is not a breach.
 */
import { data, redirect, useActionData, useLoaderData } from "react-router";
import { DeskBackLink } from "~/desk/frame";
import { Notice } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { idParam } from "~/desk/route-params.server";
import { readFormData } from "~/guards/body.server";
import { BreachForm } from "~/privacy/breach-form";
import { breachValues, getBreach, readBreachForm, recordBreach, updateBreach } from "~/privacy/breaches.server";
import { formatDateTime, isoDateInZurich } from "~/utils/format";
import type { Route } from "./+types/breach";
import { clockContext, dbContext, ownerContext } from "~/context.server";

export const handle = deskHandle;

export const meta: Route.MetaFunction = ({ params, matches }) =>
  deskMeta(params.id === "nouvelle" ? "Noter une violation" : "Violation", matches);

/** The breach's id, or null for a new one. @throws a 404 answer for anything else. */
const breachId = (param: string | undefined) => (param === "nouvelle" ? null : idParam(param));

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = breachId(params.id);
  if (id === null)
    return { id, values: { discoveredOn: isoDateInZurich(context.get(clockContext).now()) }, updated: null };
  const breach = await getBreach(context.get(dbContext), id);
  if (!breach) throw data(null, { status: 404 });
  return { id, values: breachValues(breach), updated: formatDateTime(breach.updatedAt) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = breachId(params.id);
  const owner = context.get(ownerContext);
  const result = readBreachForm(await readFormData(request, 64 * 1024));
  if (!result.ok)
    return data(
      {
        errors: result.errors,
        values: result.values,
        message: "La violation n’est pas enregistrée : corrigez les champs signalés ci-dessous.",
      },
      { status: 400 },
    );
  const db = context.get(dbContext);
  if (id === null) await recordBreach(db, result.draft, owner.userId);
  else if (!(await updateBreach(db, id, result.draft, owner.userId))) throw data(null, { status: 404 });
  throw redirect("/admin/donnees/violations", 303);
}

export default function BreachPage() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8 max-w-3xl">
      <DeskBackLink to="/admin/donnees/violations">Journal des violations</DeskBackLink>
      <h1 className="mt-4 text-3xl font-bold">
        {page.id === null ? "Noter une violation" : `Violation n° ${page.id}`}
      </h1>
      {page.updated ? <p className="mt-2 text-lg">Dernière modification : {page.updated}</p> : null}
      {answer?.message ? (
        <Notice tone="alert" className="mt-4">
          {answer.message}
        </Notice>
      ) : null}
      <BreachForm
        values={answer?.values ?? page.values}
        errors={answer?.errors}
        submitLabel={page.id === null ? "Enregistrer la violation" : "Enregistrer les modifications"}
      />
    </div>
  );
}
