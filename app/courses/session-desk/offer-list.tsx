/**
 * « Places proposées » on the desk's session page (decision 049): each
 * seat offered from the waiting list, newest first, with its state
 * (proposée, acceptée, refusée, expirée, retirée) and until when it is
 * held, and « par SMS » when it went by SMS. A person whom neither e-mail
 * nor SMS reaches is the owner's to call before the hold ends: her line says so, with her telephone, « Donner la place » (in the
 * waiting list below) if she takes it, and « Ne peut plus » here if not.
 */
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { deskLinkClass } from "~/desk/frame";
import type { SessionDeskPage } from "./page.server";

export function OfferList({ offers }: { offers: SessionDeskPage["offers"] }) {
  if (!offers.length) return null;
  const toCall = offers.filter((offer) => offer.open && offer.toCall).length;
  return (
    <section aria-labelledby="proposees" className="mt-6 rounded-2xl border-2 border-gray-200 bg-white p-4 text-lg">
      <h2 id="proposees" className="text-2xl font-bold">
        Places proposées
      </h2>
      <p className="mt-1">
        Une place libérée est proposée à la première personne de la liste d’attente, qui a jusqu’à l’heure indiquée pour
        répondre&nbsp;; sans réponse, elle va à la suivante.
        {toCall
          ? ` ${toCall === 1 ? "Une personne n’est" : `${toCall} personnes ne sont`} jointe${toCall === 1 ? "" : "s"} ni par e-mail ni par SMS : appelez-les avant l’heure limite.`
          : ""}
      </p>
      <ul className="mt-3 grid gap-3">
        {offers.map((offer) => (
          <li
            key={offer.id}
            className={`rounded-xl border-2 p-3 ${offer.open && offer.toCall ? "border-amber-700 bg-amber-50 text-amber-950" : "border-gray-200"}`}
          >
            <p className="font-semibold">
              {offer.name} · {offer.seats === 2 ? "2 places" : "1 place"}
            </p>
            <p>
              {offer.open ? `Proposée jusqu’au ${offer.holdUntil}` : `${offer.state} (proposée le ${offer.offeredAt})`}
              {offer.bySms ? " · par SMS" : ""}
            </p>
            {offer.open && offer.toCall ? (
              <>
                <p className="mt-1">
                  À appeler, ni e-mail ni SMS :{" "}
                  <a href={offer.tel} className={deskLinkClass}>
                    {offer.phone}
                  </a>
                  . Si elle prend la place, «&nbsp;Donner la place&nbsp;» dans la liste d’attente.
                </p>
                <Form method="post" className="mt-2">
                  <input type="hidden" name="intent" value="offer-declined" />
                  <input type="hidden" name="offer" value={offer.id} />
                  <Button type="submit" variant="outline">
                    Ne peut plus
                    <span className="sr-only"> : {offer.name}</span>
                  </Button>
                </Form>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
