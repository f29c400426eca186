/**
 * The person page's server side (`/admin/personne`): what the page shows
 * for an e-mail and/or telephone (`personPage`: the tables found, the
 * people under a shared key, the mails to the e-mail that did not arrive,
 * the erasure's confirmation, the result after the redirect), and the one intent, the erasure (`erasePersonIntent`:
 * erases in one transaction, redirects 303 to `?effacement=...` with counts
 * and ids only; 400 with a French message when the key is unreadable or
 * none of several people is ticked).
 */
import { data, redirect } from "react-router";
import {
  dbContext,
  loggerContext,
  ownerContext,
  settingsContext,
  wakeOutboxContext,
  type RequestContext,
} from "~/context.server";
import type { DeskIntentArgs } from "~/desk/intent.server";
import { personKeyOf, personSearch } from "~/desk/person-query";
import { describePlan, describeResult, encodeCounts } from "./sentences.server";
import { tableKey, type FoundPerson } from "~/desk/person-registry.server";
import type { PersonKey } from "~/desk/person-types";
import {
  countsOf,
  describeCounts,
  erasePerson,
  fieldNamesOf,
  findPerson,
  peopleIn,
  planErasure,
} from "~/features.server";
import { typeset } from "~/utils/typography";
import { PERSON_PATH as PATH } from "./path";
import { undeliveredFor } from "../undelivered/page.server";

/**
 * Which people the form chose (`personne`, ids of `people`): null when
 * everyone found is chosen or there is only one; [] when none of several is.
 */
function chosenOf(fields: URLSearchParams | FormData, people: readonly FoundPerson[]): string[] | null {
  const asked = new Set(fields.getAll("personne").map(String));
  const chosen = people.filter((person) => asked.has(person.id)).map((person) => person.id);
  return people.length <= 1 || chosen.length === people.length ? null : chosen;
}

/** What the person page shows for the search in `url` (`?email=&telephone=&effacer=&personne=`, or a result's query). */
export async function personPage(context: RequestContext, url: URL) {
  const db = context.get(dbContext);
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
  // The page to come back to after « Corriger et renvoyer » (the search, without the last outcome).
  const back = new URL(url);
  back.searchParams.delete("envoi");
  return {
    undelivered: query.person?.email ? await undeliveredFor(db, { email: query.person.email }) : [],
    outcome: url.searchParams.get("envoi"),
    back: `${back.pathname}${back.search}`,
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

/** The person page's data. */
export type PersonPage = Awaited<ReturnType<typeof personPage>>;

/** The erasure, confirmed: erases the posted key's person (or the ticked people) and redirects to the result. */
export async function erasePersonIntent({ form: fields, context }: DeskIntentArgs) {
  const owner = context.get(ownerContext);
  const db = context.get(dbContext);
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
  const quotesKept = result.changed.quotes?.length ?? 0;
  if (freed.length) context.get(wakeOutboxContext)();
  const params = [`effacement=${encodeCounts(result.counts)}`];
  if (kept.length) params.push(`gardees=${kept.join(",")}`);
  if (freed.length) params.push(`liberees=${freed.join(",")}`);
  if (result.scrubbed) params.push(`videes=${result.scrubbed}`);
  if (invoicesKept) params.push(`factures=${invoicesKept}`);
  if (quotesKept) params.push(`devis=${quotesKept}`);
  throw redirect(`${PATH}?${params.join("&")}`, { status: 303 });
}
