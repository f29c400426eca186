/**
 * `/admin/cours/:id/presences`: the attendance list of a date. On screen,
 * a form to tick on a phone: for each person registered (a date of a
 * series lists the series' registrations), three large choices, présent,
 * absent or excusé, and one "Enregistrer les présences" button; a plain
 * post (`intent=attendance`, `presence-{registration id}` = present |
 * absent | excused), the same without JavaScript; saved with
 * `markAttendance`, audited (`attendance-marked`, counts only). On paper
 * (a print stylesheet: no desk header, black on white), one row per seat
 * with a box ticked when marked present and a column to sign. The
 * "Imprimer" button needs JavaScript; without it, the browser's own print
 * command does the same. A date still to come has no form (a post is
 * refused, 409): the list shows who comes and the message each person
 * left (« je marche avec une canne »), on screen and on paper.
 */
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { Button } from "~/components/ui/button";
import { ATTENDANCE_LABELS, ATTENDANCE_STATES, type AttendanceState } from "~/courses/attendance";
import { attendanceOf, isAttendanceState, markAttendance } from "~/courses/attendance.server";
import { listRegistrations } from "~/courses/registrations.server";
import { courseBySlug, getSession, seriesSessions, sessionEnd } from "~/courses/sessions.server";
import { PrintButton } from "~/courses/print-button";
import { audit } from "~/desk/audit.server";
import { deskHandle, deskMeta } from "~/desk/meta";
import { idParam } from "~/desk/route-params.server";
import { readFormData } from "~/guards/body.server";
import { formatDateTimeRange, ofName } from "~/utils/format";
import type { Route } from "./+types/course-attendance";
import { clockContext, dbContext, loggerContext, ownerContext } from "~/context.server";

export const handle = deskHandle;

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const db = context.get(dbContext);
  const session = await getSession(db, id);
  if (!session) throw data(null, { status: 404 });
  const rows = await listRegistrations(db, id);
  const ticked = await attendanceOf(db, id);
  const dates = session.seriesId === null ? [] : await seriesSessions(db, [session.seriesId]);
  const ordered = dates.sort((a, b) => new Date(a.startsAt).getTime() - new Date(b.startsAt).getTime());
  return {
    id,
    /** The date has not started yet: nothing to tick. */
    upcoming: isUpcoming(session.startsAt, context.get(clockContext).now()),
    title: courseBySlug(session.courseId)?.title ?? session.courseId,
    when: formatDateTimeRange(session.startsAt, sessionEnd(session)),
    /** "Séance 2 sur 4" for a date of a series. */
    ofSeries: ordered.length ? `Séance ${ordered.findIndex((row) => row.id === id) + 1} sur ${ordered.length}` : null,
    place: `${session.placeName}, ${session.placeAddress}`,
    people: rows
      .filter((row) => row.status === "confirmed")
      .sort((a, b) => a.lastName.localeCompare(b.lastName, "fr") || a.firstName.localeCompare(b.firstName, "fr"))
      .map((row) => ({
        id: row.id,
        name: `${row.lastName} ${row.firstName}`,
        seats: row.seats,
        phone: row.phone,
        /** What the person wrote with their registration, or null. */
        message: row.message?.trim() || null,
        state: ticked.get(row.id) ?? null,
      })),
  };
}

/** Whether the date starting at `startsAt` is still to come at `now`. */
const isUpcoming = (startsAt: string | Date, now: Date) => new Date(startsAt).getTime() > now.getTime();

const UPCOMING_MESSAGE = "Cette séance n’a pas encore eu lieu\u00a0: les présences se cochent le jour même.";

export const meta: Route.MetaFunction = ({ data: loaded, matches }) =>
  deskMeta(loaded ? `Liste de présence, ${loaded.title}` : "Séance introuvable", matches);

export async function action({ request, context, params }: Route.ActionArgs) {
  const owner = context.get(ownerContext);
  const id = idParam(params.id);
  const db = context.get(dbContext);
  const session = await getSession(db, id);
  if (!session) throw data(null, { status: 404 });
  if (isUpcoming(session.startsAt, context.get(clockContext).now()))
    return data({ message: UPCOMING_MESSAGE }, { status: 409 });
  const form = await readFormData(request, 64 * 1024);
  if (form.get("intent") !== "attendance") return data({ message: "Action inconnue." }, { status: 400 });
  const marks: { registrationId: number; state: AttendanceState }[] = [];
  for (const [name, value] of form.entries()) {
    const match = /^presence-(\d{1,15})$/.exec(name);
    if (match && isAttendanceState(value)) marks.push({ registrationId: Number(match[1]), state: value });
  }
  const counts = await markAttendance(db, id, marks);
  const saved = counts.present + counts.absent + counts.excused;
  if (saved > 0) {
    await audit(
      db,
      { actor: owner.userId, action: "attendance-marked", details: { session: id, ...counts } },
      context.get(loggerContext),
    );
  }
  return {
    message:
      saved === 0
        ? "Rien à enregistrer : cochez présent, absent ou excusé pour chaque personne."
        : `Présences enregistrées : ${counts.present} présent(e)${counts.present > 1 ? "s" : ""}, ${counts.absent} absent(e)${counts.absent > 1 ? "s" : ""}, ${counts.excused} excusé(e)${counts.excused > 1 ? "s" : ""}.`,
  };
}

const choiceClass =
  "flex min-h-12 flex-1 basis-24 cursor-pointer items-center justify-center gap-2 rounded-xl border-2 border-gray-300 bg-white px-2 py-2 text-lg font-semibold has-[:checked]:border-primary has-[:checked]:bg-primary-soft has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary";

export default function Attendance() {
  const { id, title, when, ofSeries, place, people, upcoming } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8 print:mt-0 print:text-black">
      <p className="print:hidden">
        <Link to={`/admin/cours/${id}`} className="text-lg">
          ← La séance
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">Liste de présence : {title}</h1>
      {ofSeries ? <p className="mt-2 text-xl font-semibold">{ofSeries}</p> : null}
      <p className="mt-2 text-xl first-letter:uppercase">{when}</p>
      <p className="text-lg">{place}</p>
      {answer?.message ? (
        <p role="status" className="mt-4 rounded-xl border-2 border-primary bg-primary-soft p-4 text-lg print:hidden">
          {answer.message}
        </p>
      ) : null}
      {people.length === 0 ? (
        <p className="mt-4 text-lg">Personne n’est inscrit.</p>
      ) : upcoming ? (
        <>
          <p className="mt-4 text-lg print:hidden">{UPCOMING_MESSAGE}</p>
          <ul className="mt-4 flex flex-col gap-3 print:hidden">
            {people.map((person) => (
              <li key={person.id} className="rounded-2xl border-2 border-gray-200 bg-white p-4 text-lg">
                <p className="text-xl font-bold">{person.name}</p>
                <p>
                  {person.phone}
                  {person.seats > 1 ? ` · ${person.seats} places (avec un accompagnant)` : ""}
                </p>
                {person.message ? <p className="mt-1">Message&nbsp;: «&nbsp;{person.message}&nbsp;»</p> : null}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <Form method="post" className="mt-6 flex flex-col gap-4 print:hidden">
          <input type="hidden" name="intent" value="attendance" />
          {people.map((person) => (
            <fieldset key={person.id} className="rounded-2xl border-2 border-gray-200 bg-white p-4">
              <legend className="px-1 text-xl font-bold">{person.name}</legend>
              <p className="text-lg">
                {person.phone}
                {person.seats > 1 ? ` · ${person.seats} places (avec un accompagnant)` : ""}
              </p>
              {person.message ? <p className="mt-1 text-lg">Message&nbsp;: «&nbsp;{person.message}&nbsp;»</p> : null}
              <div className="mt-3 flex flex-wrap gap-2">
                {ATTENDANCE_STATES.map((state) => (
                  <label key={state} className={choiceClass}>
                    <input
                      type="radio"
                      name={`presence-${person.id}`}
                      value={state}
                      defaultChecked={person.state === state}
                      className="size-6 shrink-0 accent-primary"
                    />
                    {ATTENDANCE_LABELS[state]}
                  </label>
                ))}
              </div>
            </fieldset>
          ))}
          <Button type="submit" size="large" className="self-start">
            Enregistrer les présences
          </Button>
        </Form>
      )}
      <div className="mt-8 print:hidden">
        <PrintButton />
      </div>
      <table className="mt-6 hidden w-full border-collapse text-lg print:table">
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
                  {seat === 0 ? person.name : `Accompagnant(e) ${ofName(person.name)}`}
                  {seat === 0 && person.message ? (
                    <span className="block text-base">«&nbsp;{person.message}&nbsp;»</span>
                  ) : null}
                </td>
                <td className="border-2 border-gray-400 p-2">{seat === 0 ? person.phone : ""}</td>
                <td className="border-2 border-gray-400 p-2">{person.state ? ATTENDANCE_LABELS[person.state] : "☐"}</td>
                <td className="h-12 border-2 border-gray-400 p-2" />
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}
