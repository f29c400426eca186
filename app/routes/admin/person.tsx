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
import { inArray } from "drizzle-orm";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import type { Database } from "~/db/client.server";
import { courseRegistrations, courseSessions } from "~/db/schema";
import { Notice, TextField } from "~/desk/form-parts";
import { deskHandle, deskMeta } from "~/desk/meta";
import { sessionNames } from "~/courses/person.server";
import type { RegistrationRow } from "~/courses/booking.server";
import { personKeyOf, personSearch } from "~/desk/person-query";
import { tableKey, type FoundPerson } from "~/desk/person-registry.server";
import type { ErasurePlan, PersonKey } from "~/desk/person-types";
import {
  countsOf,
  describeCounts,
  erasePerson,
  fieldNamesOf,
  findPerson,
  peopleIn,
  PERSON_TABLES,
  planCounts,
  planErasure,
} from "~/features.server";
import { readFormData } from "~/guards/body.server";
import { PersonRowList } from "~/desk/person-rows";
import { typeset } from "~/utils/typography";
import type { Route } from "./+types/person";
import { settingsContext, dbContext, loggerContext, wakeOutboxContext, ownerContext } from "~/context.server";

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

/** Ids in a result's query value (`12,13`); anything else is dropped. */
const decodeIds = (value: string | null) =>
  (value ?? "")
    .split(",")
    .filter((part) => /^\d{1,15}$/.test(part))
    .map(Number)
    .slice(0, 100);

/**
 * Which people the form chose (`personne`, ids of `people`): null when
 * everyone found is chosen or there is only one; [] when none of several is.
 */
function chosenOf(fields: URLSearchParams | FormData, people: readonly FoundPerson[]): string[] | null {
  const asked = new Set(fields.getAll("personne").map(String));
  const chosen = people.filter((person) => asked.has(person.id)).map((person) => person.id);
  return people.length <= 1 || chosen.length === people.length ? null : chosen;
}

/** The confirmation's sentences: what is erased, what is kept and why, the seats freed, who is spared. */
async function describePlan(db: Database, plan: ErasurePlan, people: FoundPerson[], chosen: string[] | null) {
  const now = Date.now();
  const registrations = plan.tables.course_registrations as { erased: RegistrationRow[]; changed: RegistrationRow[] };
  const kept = registrations.changed;
  const scrubbed = plan.tables.outbox!.changed;
  const freedRows = registrations.erased.filter((row) => row.status === "confirmed");
  const labels = await sessionNames(
    db,
    [...kept, ...freedRows].map((row) => row.sessionId),
  );
  const sessions = await db
    .select({ id: courseSessions.id, startsAt: courseSessions.startsAt, cancelledAt: courseSessions.cancelledAt })
    .from(courseSessions)
    .where(inArray(courseSessions.id, [0, ...freedRows.map((row) => row.sessionId)]));
  const open = new Set(
    sessions.filter((row) => !row.cancelledAt && new Date(row.startsAt).getTime() > now).map((row) => row.id),
  );
  return {
    what: typeset(`Cela efface définitivement : ${describeCounts(planCounts(plan))}.`),
    kept: kept.map((row) =>
      typeset(
        `L’inscription de ${row.firstName} ${row.lastName} (${labels.get(row.sessionId) ?? "séance"}) est gardée : sa place reste prise. Seules les coordonnées de ${row.bookerFirstName} ${row.bookerLastName ?? ""}, qui l’a inscrit(e), et son message en sont effacés.`,
      ),
    ),
    freed: freedRows
      .filter((row) => open.has(row.sessionId))
      .map((row) =>
        typeset(
          `${row.seats === 2 ? "2 places se libèrent" : "1 place se libère"} pour ${labels.get(row.sessionId)} : vous recevrez un e-mail « Place libérée » avec la première personne de la liste d’attente, s’il y en a une.`,
        ),
      ),
    scrubbed: scrubbed.length
      ? typeset(
          `${scrubbed.length === 1 ? "1 e-mail déjà envoyé, qui concerne aussi une autre personne, est gardé" : `${scrubbed.length} e-mails déjà envoyés, qui concernent aussi d’autres personnes, sont gardés`} sans son contenu.`,
        )
      : null,
    invoices: invoicesKeptSentence(plan.tables.invoices!.changed.length, "plan"),
    spared:
      chosen === null
        ? null
        : typeset(
            `Rien n’est effacé pour ${new Intl.ListFormat("fr", { type: "conjunction" }).format(
              people.filter((person) => !chosen.includes(person.id)).map((person) => person.name),
            )}.`,
          ),
    title: typeset(
      chosen === null
        ? people.length > 1
          ? "Effacer toutes ces personnes ?"
          : "Effacer cette personne ?"
        : `Effacer ${new Intl.ListFormat("fr", { type: "conjunction" }).format(
            people.filter((person) => chosen.includes(person.id)).map((person) => person.name),
          )} ?`,
    ),
  };
}

/**
 * What an erasure does with invoices (CO art. 958f: kept 10 years): `count` of them kept, said
 * before the erasure ("plan") or after it ("done"); null when there is none.
 */
function invoicesKeptSentence(count: number, when: "plan" | "done"): string | null {
  if (!count) return null;
  const what = count === 1 ? "1 facture est gardée" : `${count} factures sont gardées`;
  return typeset(
    `${what} 10 ans, comme la loi le demande (Code des obligations, art. 958f) : le nom et l’adresse y restent ; l’e-mail et le téléphone ${when === "plan" ? "en seront effacés" : "en sont effacés"}.`,
  );
}

/** The result's sentences, from the redirect's query (ids and counts only). */
async function describeResult(db: Database, params: URLSearchParams) {
  const erased = decodeCounts(params.get("effacement"));
  if (!erased) return null;
  const kept = decodeIds(params.get("gardees"));
  const keptRows = kept.length
    ? await db
        .select({
          firstName: courseRegistrations.firstName,
          lastName: courseRegistrations.lastName,
          sessionId: courseRegistrations.sessionId,
        })
        .from(courseRegistrations)
        .where(inArray(courseRegistrations.id, kept))
    : [];
  const freed = decodeIds(params.get("liberees"));
  const labels = await sessionNames(db, [...keptRows.map((row) => row.sessionId), ...freed]);
  const scrubbed = decodeIds(params.get("videes"))[0] ?? 0;
  const invoicesKept = decodeIds(params.get("factures"))[0] ?? 0;
  return {
    summary: typeset(`Effacement terminé : ${describeCounts(erased)}.`),
    kept: keptRows.map((row) =>
      typeset(
        `L’inscription de ${row.firstName} ${row.lastName} (${labels.get(row.sessionId) ?? "séance"}) est gardée ; les coordonnées de la personne qui l’avait inscrit(e) sont effacées.`,
      ),
    ),
    freed: freed
      .filter((id) => labels.has(id))
      .map((id) => ({
        id,
        text: typeset(
          `Place libérée pour ${labels.get(id)} : l’e-mail « Place libérée » vous dit qui attend en premier sur la liste d’attente. Appelez cette personne, puis donnez-lui la place sur la page de la séance.`,
        ),
      })),
    scrubbed: scrubbed
      ? typeset(
          scrubbed === 1
            ? "1 e-mail déjà envoyé est gardé pour vos dossiers, sans son contenu."
            : `${scrubbed} e-mails déjà envoyés sont gardés pour vos dossiers, sans leur contenu.`,
        )
      : null,
    invoices: invoicesKeptSentence(invoicesKept, "done"),
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const url = new URL(request.url);
  const query = personKeyOf(url.searchParams);
  const found = query.person ? await findPerson(db, query.person) : null;
  const people = found && query.person ? peopleIn(found, query.person) : [];
  const counts = found ? countsOf(found) : null;
  const names = found ? await fieldNamesOf(db, found) : null;
  const summary = counts ? describeCounts(counts) : "";
  const asked = url.searchParams.has("effacer");
  const chosen = asked ? chosenOf(url.searchParams, people) : null;
  // Several people under one key: the owner ticks at least one.
  const choiceMissing = asked && people.length > 1 && chosen !== null && chosen.length === 0;
  const confirming = asked && !choiceMissing && !!query.person;
  const plan = confirming ? await planErasure(db, query.person!, chosen) : null;
  return {
    email: query.email,
    telephone: query.telephone,
    errors: {
      email: query.errors.email && typeset(query.errors.email),
      telephone: query.errors.telephone && typeset(query.errors.telephone),
    },
    search: personSearch(query),
    confirming,
    choiceMissing: choiceMissing ? typeset("Cochez au moins une personne à effacer.") : null,
    chosen: chosen ?? people.map((person) => person.id),
    result: await describeResult(db, url.searchParams),
    total: counts ? Object.values(counts).reduce((sum, count) => sum + count, 0) : 0,
    found: typeset(`Trouvé : ${summary}.`),
    people: people.map((person) => ({
      id: person.id,
      name: person.name,
      details: [...person.emails, ...person.phones, typeset(person.what)],
    })),
    confirmation: plan && query.person ? await describePlan(db, plan, people, chosen) : null,
    sections: found?.map(({ entry, rows }) => ({
      key: tableKey(entry),
      title: entry.title,
      rows: rows.map((row) => entry.fields(row, names!)),
    })),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Données d’une personne", matches);

export async function action({ request, context }: Route.ActionArgs) {
  const owner = context.get(ownerContext);
  const db = context.get(dbContext);
  const fields = await readFormData(request, 8 * 1024);
  const query = personKeyOf(fields);
  if (!query.person) {
    return data(
      { message: typeset("Indiquez une adresse e-mail ou un numéro de téléphone lisible, puis cherchez à nouveau.") },
      { status: 400 },
    );
  }
  const person: PersonKey = query.person;
  const people = peopleIn(await findPerson(db, person), person);
  const chosen = chosenOf(fields, people);
  if (people.length > 1 && chosen !== null && chosen.length === 0) {
    return data(
      {
        message: typeset(
          "Plusieurs personnes utilisent cette adresse ou ce numéro : cochez celle ou celles à effacer, puis confirmez. Rien n’a été effacé.",
        ),
      },
      { status: 400 },
    );
  }
  const result = await erasePerson(db, person, chosen, owner.userId, {
    siteUrl: context.get(settingsContext).SITE_URL,
    logger: context.get(loggerContext),
  });
  // The owner's notice of freed seats leaves at once.
  const kept = result.changed.course_registrations ?? [];
  const freed = result.notes.sessions_freed ?? [];
  const invoicesKept = result.changed.invoices?.length ?? 0;
  if (freed.length) context.get(wakeOutboxContext)();
  const params = [`effacement=${encodeCounts(result.counts)}`];
  if (kept.length) params.push(`gardees=${kept.join(",")}`);
  if (freed.length) params.push(`liberees=${freed.join(",")}`);
  if (result.scrubbed) params.push(`videes=${result.scrubbed}`);
  if (invoicesKept) params.push(`factures=${invoicesKept}`);
  throw redirect(`${PATH}?${params.join("&")}`, { status: 303 });
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
      {result ? (
        <Notice tone="status" className="mt-6">
          <span className="block">{result.summary}</span>
          {result.kept.map((text) => (
            <span key={text} className="mt-2 block">
              {text}
            </span>
          ))}
          {result.freed.map(({ id, text }) => (
            <span key={id} className="mt-2 block">
              {text}{" "}
              <Link to={`/admin/cours/${id}`} className="underline">
                Ouvrir la séance
              </Link>
            </span>
          ))}
          {result.scrubbed ? <span className="mt-2 block">{result.scrubbed}</span> : null}
          {result.invoices ? <span className="mt-2 block">{result.invoices}</span> : null}
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

/** The people found under a shared e-mail or telephone, to tick whom to erase (a GET form: no JavaScript needed). */
function ChoosePeople({ page }: { page: PageData }) {
  return (
    <section aria-labelledby="personnes" className="mt-8 rounded-2xl border-2 border-gray-200 bg-white p-4 sm:p-6">
      <h2 id="personnes" className="text-2xl font-bold">
        {page.people.length} personnes trouvées
      </h2>
      <p className="mt-2 text-lg">
        Plusieurs personnes utilisent cette adresse ou ce numéro. Cochez celle ou celles à effacer : rien n’est effacé
        pour les autres.
      </p>
      {page.choiceMissing ? (
        <Notice tone="alert" className="mt-4">
          {page.choiceMissing}
        </Notice>
      ) : null}
      <Form method="get" action={PATH} className="mt-4">
        <input type="hidden" name="email" value={page.email} />
        <input type="hidden" name="telephone" value={page.telephone} />
        <input type="hidden" name="effacer" value="1" />
        <fieldset>
          <legend className="text-lg font-semibold">Personnes à effacer</legend>
          <ul className="mt-2 space-y-2">
            {page.people.map((person, index) => (
              <li key={person.id} className="rounded-xl border-2 border-gray-200 px-3">
                <Checkbox
                  id={`personne-${index}`}
                  name="personne"
                  value={person.id}
                  defaultChecked={page.confirming && page.chosen.includes(person.id)}
                  label={
                    <span className="break-words">
                      <span className="block font-semibold">{person.name}</span>
                      {person.details.map((line) => (
                        <span key={line} className="block">
                          {line}
                        </span>
                      ))}
                    </span>
                  }
                />
              </li>
            ))}
          </ul>
        </fieldset>
        <Button type="submit" variant="danger" className="mt-4">
          Effacer les personnes cochées
        </Button>
      </Form>
      <ul className="mt-6 space-y-2 text-lg">
        {page.people.map((person) => (
          <li key={person.id}>
            <Link to={`${PATH}/export?${page.search}&personne=${encodeURIComponent(person.id)}`} className="underline">
              L’export de {person.name} seulement
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Results({ page }: { page: PageData }) {
  if (page.total === 0) {
    return (
      <p className="mt-8 text-lg font-semibold">
        Aucune donnée enregistrée pour cette adresse e-mail ou ce numéro de téléphone.
      </p>
    );
  }
  const several = page.people.length > 1;
  const confirmation = page.confirmation;
  return (
    <>
      {confirmation ? (
        <section
          aria-labelledby="confirmation"
          className="mt-8 rounded-2xl border-2 border-red-700 bg-red-50 p-4 text-lg sm:p-6"
        >
          <h2 id="confirmation" className="text-2xl font-bold break-words text-red-900">
            {confirmation.title}
          </h2>
          <p className="mt-3">{confirmation.what}</p>
          {[
            ...confirmation.kept,
            ...confirmation.freed,
            confirmation.scrubbed,
            confirmation.invoices,
            confirmation.spared,
          ]
            .filter((text): text is string => !!text)
            .map((text) => (
              <p key={text} className="mt-2">
                {text}
              </p>
            ))}
          <p className="mt-2">
            Cette action ne peut pas être annulée. Si la personne a demandé une copie de ses données, exportez-les
            d’abord.
          </p>
          <Form method="post" action={PATH} className="mt-4 flex flex-wrap gap-3">
            <input type="hidden" name="email" value={page.email} />
            <input type="hidden" name="telephone" value={page.telephone} />
            {page.chosen.map((id) => (
              <input key={id} type="hidden" name="personne" value={id} />
            ))}
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
            <Link to={`${PATH}/export?${page.search}`} className={buttonVariants({ variant: "outline" })}>
              Voir l’export à imprimer
            </Link>
            <a href={`${PATH}.json?${page.search}`} download className={buttonVariants({ variant: "outline" })}>
              {several ? "Exporter les données de ces personnes" : "Exporter les données de cette personne"}
            </a>
            {several ? null : (
              <Link to={`${PATH}?${page.search}&effacer=1`} className={buttonVariants({ variant: "danger" })}>
                Effacer cette personne
              </Link>
            )}
          </p>
        </>
      )}
      {several ? <ChoosePeople page={page} /> : null}
      {page.sections!.map((section) => (
        <section key={section.key} aria-labelledby={`table-${section.key}`} className="mt-8">
          <h2 id={`table-${section.key}`} className="text-2xl font-bold">
            {section.title} ({section.rows.length})
          </h2>
          <PersonRowList rows={section.rows} />
        </section>
      ))}
    </>
  );
}
