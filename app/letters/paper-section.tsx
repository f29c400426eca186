/**
 * The session page's « Courrier et attestations » section (works without
 * JavaScript: plain forms): the letters for the post (`LettersForm`, those
 * without e-mail ticked first), an address form for
 * each registrant without e-mail nor address (`intent=letter-address`),
 * the attendance certificates (all, or one person's) and the list to sign.
 */
import { Button, buttonVariants } from "~/components/ui/button";
import { LettersForm } from "./letters-form";
import { ofName } from "~/utils/format";
import type { PaperPerson } from "./desk.server";

const field = "mt-1 block w-full rounded-lg border-2 border-gray-400 bg-white px-3 py-2 text-lg";

/** The section; `sessionId` names the PDFs' and the posts' addresses. */
export function PaperSection({ sessionId, people }: { sessionId: number; people: PaperPerson[] }) {
  const base = `/admin/cours/${sessionId}`;
  const present = people.filter((person) => person.present);
  const missing = people.filter((person) => person.withoutEmail && !person.address);
  return (
    <section aria-labelledby="courrier" className="mt-8">
      <h2 id="courrier" className="text-2xl font-bold">
        Courrier et attestations
      </h2>
      {people.length === 0 ? (
        <p className="mt-2 text-lg text-muted">Personne n’est encore inscrit.</p>
      ) : (
        <>
          <LettersForm pdf={`${base}/lettres.pdf`} post={base} people={people} />
          <p className="mt-3">
            <a href={`${base}/lettres.pdf`} className={buttonVariants({ variant: "outline" })}>
              Lettres pour tous les inscrits sans e-mail
            </a>
          </p>
          {missing.map((person) => (
            <details key={person.id} className="mt-3 rounded-xl border-2 border-gray-200 p-3 text-lg">
              <summary className="cursor-pointer font-semibold">Adresse postale {ofName(person.name)}</summary>
              <form method="post" action={base} className="mt-2 grid gap-2">
                <input type="hidden" name="intent" value="letter-address" />
                <input type="hidden" name="inscription" value={person.id} />
                <label>
                  Rue et numéro
                  <input name="rue" required maxLength={70} autoComplete="off" className={field} />
                </label>
                <label>
                  NPA
                  <input
                    name="npa"
                    required
                    inputMode="numeric"
                    pattern="[1-9][0-9]{3}"
                    autoComplete="off"
                    className={field}
                  />
                </label>
                <label>
                  Localité
                  <input name="localite" required maxLength={35} autoComplete="off" className={field} />
                </label>
                <div>
                  <Button type="submit" variant="outline">
                    Enregistrer l’adresse
                  </Button>
                </div>
              </form>
            </details>
          ))}
          <h3 className="mt-6 text-xl font-bold">Attestations de présence</h3>
          {present.length === 0 ? (
            <p className="mt-1 text-lg text-muted">
              Personne n’est encore noté présent : cochez les présences d’abord (liste de présence).
            </p>
          ) : (
            <ul className="mt-2 grid gap-2 text-lg">
              <li>
                <a href={`${base}/attestations.pdf`} className={buttonVariants({ variant: "outline" })}>
                  Toutes les attestations ({present.length}, PDF)
                </a>
              </li>
              {present.map((person) => (
                <li key={person.id}>
                  <a href={`${base}/attestations.pdf?inscription=${person.id}`}>Attestation {ofName(person.name)}</a>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-4">
            <a href={`${base}/liste-signatures.pdf`} className={buttonVariants({ variant: "outline" })}>
              Liste de présence à signer (PDF)
            </a>
          </p>
        </>
      )}
    </section>
  );
}
