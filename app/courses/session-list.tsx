/**
 * A list of upcoming sessions as visitors see them (`/cours` and
 * `/cours/{slug}`): the date in words, the course (on `/cours`), the place
 * and its access notes (a series: all its dates, one registration for them all), the price and how it is
 * paid (« Paiement sur place »), until when a seat may be cancelled online
 * (a course's page), the places left or "Complet", and a link
 * to the registration form with that session chosen. With no session, a
 * short French note and a link to the contact page.
 */
import { MapPin, Ticket } from "lucide-react";
import { buttonVariants } from "~/components/ui/button";
import { PAYMENT_MODE_SHORT } from "~/content/payment";
import { cn } from "~/utils/cn";
import { PlacesBadge } from "./places-badge";
import type { PublicSession } from "./public.server";

export function SessionList({ sessions, showCourse }: { sessions: PublicSession[]; showCourse: boolean }) {
  if (sessions.length === 0) {
    return (
      <p className="mt-6 rounded-2xl bg-primary-soft/60 p-5 text-xl">
        Aucune date n’est prévue pour l’instant. <a href="/contact">Écrivez-moi</a> ou appelez-moi&nbsp;: je vous
        préviens dès qu’une date est fixée.
      </p>
    );
  }
  return (
    <ul className="mt-6 flex flex-col gap-5">
      {sessions.map((session) => {
        const full = session.placesLeft === 0;
        return (
          <li
            key={session.id}
            id={`seance-${session.id}`}
            className="flex flex-col gap-2 rounded-3xl border-2 border-line bg-white p-5 text-lg shadow-sm"
          >
            {showCourse ? (
              <h3 className="text-2xl font-bold">
                <a href={`/cours/${session.courseId}`}>{session.courseTitle}</a>
              </h3>
            ) : null}
            {session.lessons ? (
              <>
                <p className="text-xl font-semibold">
                  {session.lessons.length} séances, une inscription pour toutes les dates&nbsp;:
                </p>
                <ol className="flex flex-col gap-1">
                  {session.lessons.map((lesson, index) => (
                    <li key={lesson} className="flex gap-2">
                      <span className="shrink-0 font-semibold">{index + 1}.</span>
                      <span className="first-letter:uppercase">{lesson}</span>
                    </li>
                  ))}
                </ol>
              </>
            ) : (
              <p className="text-xl font-semibold first-letter:uppercase">{session.when}</p>
            )}
            <p className="flex gap-2">
              <MapPin aria-hidden="true" className="mt-1 size-5 shrink-0" />
              <span>
                {session.placeName}, {session.placeAddress}
                {session.placeAccess ? <span className="block text-muted">{session.placeAccess}</span> : null}
              </span>
            </p>
            <p className="flex gap-2">
              <Ticket aria-hidden="true" className="mt-1 size-5 shrink-0" />
              <span>
                {session.price} par personne{session.lessons ? `, pour les ${session.lessons.length} séances` : ""}
                <span className="block">{PAYMENT_MODE_SHORT[session.payment]}</span>
              </span>
            </p>
            {session.cancelUntil ? <p>Annulation possible jusqu’au {session.cancelUntil}.</p> : null}
            <PlacesBadge full={full} as="p">
              {session.placesText}
              {full && session.waiting > 0
                ? ` (${session.waiting} ${session.waiting > 1 ? "personnes" : "personne"} en liste d’attente)`
                : null}
            </PlacesBadge>
            <a
              href={`/cours/${session.courseId}?seance=${session.id}#inscription`}
              className={cn(buttonVariants({ variant: full ? "outline" : "primary" }), "mt-2 self-start")}
            >
              {full ? "Liste d’attente" : "S’inscrire"}
              <span className="sr-only">
                {" "}
                : {session.lessons ? `les ${session.lessons.length} séances dès le ${session.when}` : session.when}
              </span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}
