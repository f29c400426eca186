/**
 * The form of letters for the post (a plain form, without JavaScript too),
 * on a session's page and on the call list: whom to write to (ticked: those
 * without e-mail who have an address; no address: not selectable), the
 * envelope's window left or right, « Imprimer les lettres (PDF) » (a GET of
 * `pdf` with `choix`, `inscription` and `fenetre`) and « Noter ces lettres
 * envoyées aujourd’hui » (a POST of `intent=letters-sent` to `post`).
 */
import { Button } from "~/components/ui/button";
import type { PaperPerson } from "./desk.server";

/** One person the form offers a letter to. */
export type LetterPerson = Pick<PaperPerson, "id" | "name" | "withoutEmail" | "address" | "sent">;

export function LettersForm({ pdf, post, people }: { pdf: string; post: string; people: readonly LetterPerson[] }) {
  return (
    <form method="get" action={pdf} className="mt-3 grid gap-3 text-lg">
      {/* The ticked boxes are the choice: none ticked prints none (not everyone without e-mail). */}
      <input type="hidden" name="choix" value="1" />
      <fieldset>
        <legend className="font-semibold">Lettres par la poste : à qui ?</legend>
        <ul className="mt-1 grid gap-1">
          {people.map((person) => (
            <li key={person.id}>
              <label className="flex items-start gap-2">
                <input
                  type="checkbox"
                  name="inscription"
                  value={person.id}
                  defaultChecked={person.withoutEmail && !!person.address}
                  disabled={!person.address}
                  className="mt-1.5 size-5"
                />
                <span>
                  {person.name}
                  {person.withoutEmail ? " (sans e-mail)" : ""}
                  {person.address ? ` · ${person.address}` : " · adresse postale manquante"}
                  {person.sent.length ? ` · lettre envoyée le ${person.sent.join(", le ")}` : ""}
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <fieldset>
        <legend className="font-semibold">Fenêtre de l’enveloppe</legend>
        <label className="mr-6 inline-flex items-center gap-2">
          <input type="radio" name="fenetre" value="droite" defaultChecked className="size-5" /> À droite
        </label>
        <label className="inline-flex items-center gap-2">
          <input type="radio" name="fenetre" value="gauche" className="size-5" /> À gauche
        </label>
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <Button type="submit">Imprimer les lettres (PDF)</Button>
        <Button type="submit" variant="outline" formMethod="post" formAction={post} name="intent" value="letters-sent">
          Noter ces lettres envoyées aujourd’hui
        </Button>
      </div>
    </form>
  );
}
