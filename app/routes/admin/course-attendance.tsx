/**
 * `/admin/cours/:id/presences`: the attendance list of a session, to print
 * (a print stylesheet: no desk header, black on white, one row per seat
 * with a box to tick and a column to sign). The "Imprimer" button needs
 * JavaScript; without it, the browser's own print command does the same.
 */
import { data, Link, useLoaderData } from "react-router";
import { listRegistrations } from "~/courses/booking.server";
import { courseBySlug, getSession, sessionEnd } from "~/courses/sessions.server";
import { requireOwner } from "~/desk/guard.server";
import { deskHandle, deskMeta } from "~/desk/meta";
import { formatDateTimeRange } from "~/utils/format";
import { PrintButton } from "~/courses/print-button";
import { idParam } from "~/desk/route-params.server";
import type { Route } from "./+types/course-attendance";

export const handle = deskHandle;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireOwner(request, context);
  const id = idParam(params.id);
  const session = await getSession(context.db!, id);
  if (!session) throw data(null, { status: 404 });
  const rows = await listRegistrations(context.db!, id);
  return {
    id,
    title: courseBySlug(session.courseId)?.title ?? session.courseId,
    when: formatDateTimeRange(session.startsAt, sessionEnd(session)),
    place: `${session.placeName}, ${session.placeAddress}`,
    people: rows
      .filter((row) => row.status === "confirmed")
      .sort((a, b) => a.lastName.localeCompare(b.lastName, "fr") || a.firstName.localeCompare(b.firstName, "fr"))
      .map((row) => ({ id: row.id, name: `${row.lastName} ${row.firstName}`, seats: row.seats, phone: row.phone })),
  };
}

export const meta: Route.MetaFunction = ({ data: loaded, matches }) =>
  deskMeta(loaded ? `Liste de présence, ${loaded.title}` : "Séance introuvable", matches);

export default function Attendance() {
  const { id, title, when, place, people } = useLoaderData<typeof loader>();
  return (
    <div className="mt-8 print:mt-0 print:text-black">
      <p className="print:hidden">
        <Link to={`/admin/cours/${id}`} className="text-lg">
          ← La séance
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">Liste de présence : {title}</h1>
      <p className="mt-2 text-xl first-letter:uppercase">{when}</p>
      <p className="text-lg">{place}</p>
      <PrintButton />
      <table className="mt-6 w-full border-collapse text-lg">
        <thead>
          <tr>
            <th scope="col" className="border-2 border-gray-400 p-2 text-left">
              Nom
            </th>
            <th scope="col" className="border-2 border-gray-400 p-2 text-left">
              Téléphone
            </th>
            <th scope="col" className="w-24 border-2 border-gray-400 p-2 text-left">
              Présent(e)
            </th>
            <th scope="col" className="w-48 border-2 border-gray-400 p-2 text-left">
              Signature
            </th>
          </tr>
        </thead>
        <tbody>
          {people.flatMap((person) =>
            Array.from({ length: person.seats }, (_, seat) => (
              <tr key={`${person.id}-${seat}`} className="break-inside-avoid">
                <td className="border-2 border-gray-400 p-2">
                  {seat === 0 ? person.name : `Accompagnant(e) de ${person.name}`}
                </td>
                <td className="border-2 border-gray-400 p-2">{seat === 0 ? person.phone : ""}</td>
                <td className="border-2 border-gray-400 p-2" aria-label="À cocher">
                  ☐
                </td>
                <td className="h-12 border-2 border-gray-400 p-2" />
              </tr>
            )),
          )}
        </tbody>
      </table>
      {people.length === 0 ? <p className="mt-4 text-lg">Personne n’est inscrit.</p> : null}
    </div>
  );
}
