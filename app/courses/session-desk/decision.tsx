/**
 * « À décider » on the desk's session page (decision 052): the course is
 * below its minimum at its go/no-go time. « La maintenir quand même »
 * posts `keep-course`; « Annuler la session » is a link (`?annuler-cours`)
 * that asks once: what happens (everyone told by e-mail or on the call
 * list, every seat freed), then « Oui, annuler la session » posts
 * `cancel-below-minimum` with `confirm=oui`. Both post to the course's
 * first page (a series' anchor), without JavaScript too.
 */
import { Form, Link } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import type { SessionDeskPage } from "./page.server";

export function GoNoGoDecision({
  decision,
  asking,
}: {
  decision: SessionDeskPage["decision"];
  /** « Annuler la session » was followed: the confirmation is shown. */
  asking: boolean;
}) {
  if (!decision) return null;
  const page = `/admin/cours/${decision.anchorId}`;
  return (
    <section
      id="decision"
      aria-labelledby="decision-titre"
      className="mt-6 rounded-2xl border-2 border-amber-700 bg-amber-50 p-4 text-lg text-amber-950"
    >
      <h2 id="decision-titre" className="text-2xl font-bold">
        À décider&nbsp;: trop peu d’inscrits
      </h2>
      <p className="mt-1">
        {decision.seats === 0
          ? "Aucune place prise"
          : `${decision.seats} place${decision.seats > 1 ? "s" : ""} prise${decision.seats > 1 ? "s" : ""}`}{" "}
        pour un minimum de {decision.minimum} (constaté le {decision.checkedAt}). Maintenez le cours, ou annulez-le
        maintenant pour prévenir chacun à temps.
      </p>
      {asking ? (
        <div className="mt-3">
          <p className="font-semibold">
            Annuler la session&nbsp;? Toutes ses dates sont annulées, chaque personne inscrite ou en liste d’attente est
            prévenue (par e-mail, ou sur la liste des personnes à appeler) et toutes les places sont libérées.
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <Form method="post" action={page}>
              <input type="hidden" name="intent" value="cancel-below-minimum" />
              <input type="hidden" name="confirm" value="oui" />
              <Button type="submit" variant="outline" className="border-red-800 text-red-800">
                Oui, annuler la session
              </Button>
            </Form>
            <Link to={`${page}#decision`} className={buttonVariants()}>
              Non, revenir
            </Link>
          </div>
        </div>
      ) : (
        <div className="mt-3 flex flex-wrap gap-3">
          <Form method="post" action={page}>
            <input type="hidden" name="intent" value="keep-course" />
            <Button type="submit">La maintenir quand même</Button>
          </Form>
          <Link to={`${page}?annuler-cours#decision`} className={buttonVariants({ variant: "outline" })}>
            Annuler la session
          </Link>
        </div>
      )}
    </section>
  );
}
