/**
 * `/admin/personne`: what the site holds about one person, found by e-mail
 * and/or telephone (a GET form: `?email=...&telephone=...`), table by table
 * (app/desk/person.server.ts); "Exporter les données de cette personne"
 * (the JSON download, `/admin/personne.json`); "Effacer cette personne":
 * `&effacer=1` shows the confirmation, which names what will be erased;
 * its form posts here, the action erases every row in one transaction and
 * redirects (303) to `?effacement=contacts:2,...` (counts only), which
 * shows what was erased. Works without JavaScript.
 */
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Notice, TextField } from "~/desk/form-parts";
import { requireOwner } from "~/desk/guard.server";
import { deskHandle, deskMeta } from "~/desk/meta";
import {
  countsOf,
  describeCounts,
  erasePerson,
  findPerson,
  PERSON_TABLES,
  personKeyOf,
  personSearch,
  tableKey,
} from "~/desk/person.server";
import { readFormData } from "~/guards/body.server";
import { typeset } from "~/utils/typography";
import type { Route } from "./+types/person";

export const handle = deskHandle;

const PATH = "/admin/personne";

/** `{ contacts: 2, outbox: 3 }` as the result's query value `contacts:2,outbox:3`. */
function encodeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([table, count]) => `${table}:${count}`)
    .join(",");
}

/** The counts of a result's query value; tables outside the registry and malformed parts are dropped. */
function decodeCounts(value: string | null): Record<string, number> | null {
  if (!value) return null;
  const known = new Set(PERSON_TABLES.map(tableKey));
  const counts = Object.fromEntries(
    value
      .split(",")
      .map((part) => /^([a-z_]+):(\d{1,9})$/.exec(part))
      .filter((match): match is RegExpExecArray => match !== null && known.has(match[1]!))
      .map((match) => [match[1]!, Number(match[2])]),
  );
  return Object.keys(counts).length > 0 ? counts : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireOwner(request, context);
  const url = new URL(request.url);
  const query = personKeyOf(url.searchParams);
  const erased = decodeCounts(url.searchParams.get("effacement"));
  const found = query.person ? await findPerson(context.db!, query.person) : null;
  const counts = found ? countsOf(found) : null;
  const summary = counts ? describeCounts(counts) : "";
  return {
    email: query.email,
    telephone: query.telephone,
    errors: {
      email: query.errors.email && typeset(query.errors.email),
      telephone: query.errors.telephone && typeset(query.errors.telephone),
    },
    search: personSearch(query),
    confirming: url.searchParams.has("effacer"),
    erased: erased ? typeset(`Effacement terminé : ${describeCounts(erased)}.`) : null,
    total: counts ? Object.values(counts).reduce((sum, count) => sum + count, 0) : 0,
    found: typeset(`Trouvé : ${summary}.`),
    confirmation: {
      title: typeset("Effacer cette personne ?"),
      what: typeset(`Cela efface définitivement : ${summary}.`),
    },
    sections: found?.map(({ entry, rows }) => ({
      key: tableKey(entry),
      title: entry.title,
      rows: rows.map((row) => entry.fields(row)),
    })),
  };
}

export const meta: Route.MetaFunction = () => deskMeta("Données d’une personne");

export async function action({ request, context }: Route.ActionArgs) {
  const owner = await requireOwner(request, context);
  const query = personKeyOf(await readFormData(request, 8 * 1024));
  if (!query.person) {
    return data(
      { message: typeset("Indiquez une adresse e-mail ou un numéro de téléphone lisible, puis cherchez à nouveau.") },
      { status: 400 },
    );
  }
  const counts = await erasePerson(context.db!, query.person, owner.userId, context.logger);
  throw redirect(`${PATH}?effacement=${encodeCounts(counts)}`, { status: 303 });
}

export default function PersonPage() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { errors } = page;
  return (
    <div className="mt-8">
      <h1 className="text-3xl font-bold">Les données d’une personne</h1>
      <p className="mt-4 max-w-3xl text-lg">
        Cherchez par adresse e-mail, par numéro de téléphone, ou les deux. Vous voyez alors tout ce que le site a
        enregistré sur cette personne. Vous pouvez le lui remettre (export) ou l’effacer à sa demande.
      </p>
      {page.erased ? (
        <Notice tone="status" className="mt-6">
          {page.erased}
        </Notice>
      ) : null}
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
      {page.sections ? <Results page={page} /> : null}
    </div>
  );
}

type PageData = ReturnType<typeof useLoaderData<typeof loader>>;

function Results({ page }: { page: PageData }) {
  if (page.total === 0) {
    return (
      <p className="mt-8 text-lg font-semibold">
        Aucune donnée enregistrée pour cette adresse e-mail ou ce numéro de téléphone.
      </p>
    );
  }
  return (
    <>
      {page.confirming ? (
        <section
          aria-labelledby="confirmation"
          className="mt-8 rounded-2xl border-2 border-red-700 bg-red-50 p-4 text-lg sm:p-6"
        >
          <h2 id="confirmation" className="text-2xl font-bold text-red-900">
            {page.confirmation.title}
          </h2>
          <p className="mt-3">{page.confirmation.what}</p>
          <p className="mt-2">
            Cette action ne peut pas être annulée. Si la personne a demandé une copie de ses données, exportez-les
            d’abord.
          </p>
          <Form method="post" action={PATH} className="mt-4 flex flex-wrap gap-3">
            <input type="hidden" name="email" value={page.email} />
            <input type="hidden" name="telephone" value={page.telephone} />
            <Button type="submit" variant="danger">
              Oui, effacer définitivement
            </Button>
            <Link to={`${PATH}?${page.search}`} className={buttonVariants({ variant: "outline" })}>
              Annuler
            </Link>
          </Form>
        </section>
      ) : (
        <>
          <p className="mt-8 text-lg">{page.found}</p>
          <p className="mt-4 flex flex-wrap gap-3">
            <a href={`${PATH}.json?${page.search}`} download className={buttonVariants({ variant: "outline" })}>
              Exporter les données de cette personne
            </a>
            <Link to={`${PATH}?${page.search}&effacer=1`} className={buttonVariants({ variant: "danger" })}>
              Effacer cette personne
            </Link>
          </p>
        </>
      )}
      {page.sections!.map((section) => (
        <section key={section.key} aria-labelledby={`table-${section.key}`} className="mt-8">
          <h2 id={`table-${section.key}`} className="text-2xl font-bold">
            {section.title} ({section.rows.length})
          </h2>
          {section.rows.length === 0 ? (
            <p className="mt-2 text-lg text-muted">Rien d’enregistré.</p>
          ) : (
            <ul className="mt-4 space-y-4">
              {section.rows.map((fields, index) => (
                <li key={index}>
                  <dl className="divide-y-2 divide-gray-100 rounded-2xl border-2 border-gray-200 bg-white">
                    {fields.map(([label, value]) => (
                      <div key={label} className="grid gap-1 p-3 sm:grid-cols-[12rem_1fr]">
                        <dt className="text-lg font-semibold">{label}</dt>
                        <dd className="text-lg break-words whitespace-pre-line">{value || "(vide)"}</dd>
                      </div>
                    ))}
                  </dl>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </>
  );
}
