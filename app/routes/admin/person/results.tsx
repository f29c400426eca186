/**
 * The person page's parts (`/admin/personne`): the result of an erasure,
 * the tables found with the export and erase links, the erasure's
 * confirmation form (posted to the page), and the people under a shared
 * e-mail or telephone to tick (a GET form). Work without JavaScript.
 */
import { Form, Link } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Notice } from "~/desk/form-parts";
import { PersonRowList } from "~/desk/person-rows";
import type { PersonPage as PageData } from "./erasure.server";
import { PERSON_PATH as PATH } from "./path";
import { ofName } from "~/utils/format";

/** What an erasure did, from the redirect's query. */
export function ErasureResult({ result }: { result: NonNullable<PageData["result"]> }) {
  return (
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
  );
}

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
              {`L’export ${ofName(person.name)} seulement`}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Results({ page }: { page: PageData }) {
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
