/**
 * `/admin/cours`: the sessions (upcoming first, then past), 50 a page
 * (`?page=`), a search by course or place (`?q=`), with its state, seats taken out of capacity and waiting list, a date of a series
 * saying which ("séance 2 sur 4"); the form of a new session
 * (`intent=create`; its duration and price start from the chosen course's
 * and the price per lesson of Réglages, `courseChoices`; on success, 303 to the session's page; on error, 400
 * with the French messages beside the fields, values kept); and the link
 * to the form of a new series (`/admin/cours/nouvelle-serie`).
 */
import { data, Link, redirect, useActionData, useLoaderData } from "react-router";
import { courseChoices, readSessionForm, sessionFormValues, withCourseDefaults } from "~/courses/desk.server";
import { SessionForm } from "~/courses/session-form";
import {
  courseBySlug,
  createSession,
  deskSessionsPage,
  deskSessionStateLabel,
  sessionEnd,
} from "~/courses/sessions.server";
import { askedPage, askedSearch } from "~/components/pages";
import { ListSearch } from "~/desk/list-search";
import { Pager } from "~/components/pager";
import { deskHandle, deskMeta } from "~/desk/meta";
import { readFormData } from "~/guards/body.server";
import { formatDateTimeRange } from "~/utils/format";
import type { Route } from "./+types/courses";
import { dbContext, clockContext } from "~/context.server";
import { getSiteSettings } from "~/settings/site.server";

export const handle = deskHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  const now = context.get(clockContext).now();
  const url = new URL(request.url);
  const search = askedSearch(url.searchParams);
  const [{ rows, ...page }, settings] = await Promise.all([
    deskSessionsPage(context.get(dbContext), now, askedPage(url.searchParams), search),
    getSiteSettings(context),
  ]);
  return {
    search,
    page,
    query: url.search,
    sessions: rows.map((row) => ({
      id: row.id,
      course: courseBySlug(row.courseId)?.title ?? row.courseId,
      series: row.ofSeries ? `Séance ${row.ofSeries.rank} sur ${row.ofSeries.of} de la série` : null,
      when: formatDateTimeRange(row.startsAt, sessionEnd(row)),
      place: row.placeName,
      state: deskSessionStateLabel(row, row.waiting, now),
      seats: `${row.seatsTaken} / ${row.capacity}`,
      waiting: row.waiting,
      belowMinimum: row.seatsTaken < row.minimum,
    })),
    courses: courseChoices(settings.prices),
    values: sessionFormValues(),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => deskMeta("Cours", matches);

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request, 16 * 1024);
  if (form.get("intent") !== "create") return data({ errors: {}, values: null }, { status: 400 });
  // A duration or price left empty is the chosen course's (its lesson, the price per lesson of Réglages).
  const result = readSessionForm(withCourseDefaults(form, (await getSiteSettings(context)).prices));
  if (!result.ok) return data({ errors: result.errors, values: result.values }, { status: 400 });
  const id = await createSession(context.get(dbContext), result.fields);
  throw redirect(`/admin/cours/${id}`, 303);
}

export default function DeskCourses() {
  const { sessions, page, query, search, courses, values } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8">
      <h1 className="text-3xl font-bold">Cours</h1>
      <p className="mt-2 text-lg">
        <Link to="/admin/a-appeler">À appeler demain</Link> : les personnes qu’aucun rappel n’atteint (ni e-mail ni
        SMS), à imprimer.
      </p>
      {sessions.length === 0 && !search ? (
        <p className="mt-4 text-lg">Aucune séance pour l’instant : créez la première ci-dessous.</p>
      ) : (
        <>
          <ListSearch
            pathname="/admin/cours"
            label="Rechercher une séance"
            hint="Cours ou lieu"
            search={search}
            page={page}
            noun={{ one: "séance", many: "séances", none: "Aucune séance" }}
          />
          <ul className="mt-4 grid gap-3">
            {sessions.map((session) => (
              <li key={session.id} className="rounded-2xl border-2 border-gray-200 bg-white p-4 text-lg">
                <p className="text-xl font-bold">
                  <Link to={`/admin/cours/${session.id}`}>{session.course}</Link>
                </p>
                {session.series ? <p className="font-semibold">{session.series}</p> : null}
                <p className="first-letter:uppercase">{session.when}</p>
                <p>{session.place}</p>
                <p>
                  <span className="font-semibold">{session.state}</span> · {session.seats} places prises
                  {session.waiting > 0 ? ` · ${session.waiting} en liste d’attente` : ""}
                  {session.belowMinimum ? " · minimum pas encore atteint" : ""}
                </p>
              </li>
            ))}
          </ul>
          <Pager pathname="/admin/cours" search={query} label="Pages des séances" {...page} />
        </>
      )}
      <h2 className="mt-10 text-2xl font-bold">Nouvelle séance</h2>
      <SessionForm
        courses={courses}
        values={answer?.values ?? values}
        errors={answer?.errors}
        submitLabel="Créer la séance"
        intent="create"
      />
      <h2 className="mt-10 text-2xl font-bold">Un cours en plusieurs séances</h2>
      <p className="mt-2 text-lg">
        Pour un cours de plusieurs dates (par exemple « 4 séances de 1h30 »), créez une série : une inscription y prend
        une place à chaque date. <Link to="/admin/cours/nouvelle-serie">Nouvelle série de dates</Link>
      </p>
    </div>
  );
}
