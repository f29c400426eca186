/**
 * `/admin/personne`: what the site holds about one person, found by e-mail
 * and/or telephone (a GET form: `?email=...&telephone=...`), table by table
 * (app/desk/person-registry.server.ts, app/features.server.ts); the export as a page to print or send
 * (`/admin/personne/export`) and as JSON (`/admin/personne.json`);
 * "Effacer cette personne": `&effacer=1` shows the confirmation, which
 * names what will be erased, what is kept (a relative's registration;
 * invoices, kept 10 years by CO art. 958f, without e-mail and telephone) and
 * the seats freed. When several people share the e-mail or telephone
 * (a couple), the page lists them and the owner ticks whom to erase
 * (`&personne=marie dupont`, several allowed): the erasure refuses to
 * guess. The confirmation's form posts here; the action erases in one
 * transaction and redirects (303) to `?effacement=contacts:2,...` (counts
 * only) `&gardees=12` (registrations kept) `&liberees=5` (sessions with
 * freed seats) `&videes=1` (mails emptied) `&factures=2` (invoices kept),
 * which the page says in words.
 * Works without JavaScript.
 */
import { Form, useActionData, useLoaderData } from "react-router";
import { Button } from "~/components/ui/button";
import { Notice, TextField } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { readFormData } from "~/guards/body.server";
import type { Route } from "./+types/person";
import { erasePersonIntent, personPage } from "./person/erasure.server";
import { PERSON_PATH as PATH } from "./person/path";
import { ErasureResult, Results } from "./person/results";
import { UndeliveredMails, UndeliveredOutcome } from "~/desk/undelivered";
import { UNDELIVERED_PATH } from "./undelivered/path";

export const handle = deskHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  return personPage(context, new URL(request.url));
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Données d’une personne", matches);

/** The page's one intent: the confirmed erasure (its form posts no `intent`). */
export async function action({ request, context }: Route.ActionArgs) {
  return erasePersonIntent({ form: await readFormData(request, 8 * 1024), context, id: 0 });
}

export default function PersonPage() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { errors, result } = page;
  return (
    <div className="mt-8">
      <h1 className="text-3xl font-bold">Les données d’une personne</h1>
      <p className="mt-4 max-w-3xl text-lg">
        Cherchez par adresse e-mail, par numéro de téléphone, ou les deux. Vous voyez alors tout ce que le site a
        enregistré sur cette personne. Vous pouvez le lui remettre (export) ou l’effacer à sa demande.
      </p>
      {result ? <ErasureResult result={result} /> : null}
      <UndeliveredOutcome outcome={page.outcome} />
      {answer?.message ? (
        <Notice tone="alert" className="mt-6">
          {answer.message}
        </Notice>
      ) : null}
      <Form method="get" action={PATH} className="mt-6 grid gap-4 md:grid-cols-[1fr_1fr_auto] md:items-start">
        <TextField id="email" label="Adresse e-mail" type="email" defaultValue={page.email} error={errors.email} />
        <TextField
          id="telephone"
          label="Numéro de téléphone"
          type="tel"
          defaultValue={page.telephone}
          error={errors.telephone}
        />
        <Button type="submit" className="md:mt-9">
          Chercher
        </Button>
      </Form>
      <UndeliveredMails mails={page.undelivered} action={UNDELIVERED_PATH} back={page.back} />
      {page.sections ? <Results page={page} /> : null}
    </div>
  );
}
