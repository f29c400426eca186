/**
 * `/admin/cours/nouvelle-serie`: the form of a new series of dates
 * (issue 22, item 1; docs/decisions/027-course-series.md): the course, the
 * first date and time, then "chaque semaine" or the dates picked one by
 * one, the number of lessons (empty: the course's), and the place, places
 * and the price of the whole series (proposed: the price per lesson of
 * Réglages times the number of dates, the total shown; the duration is
 * one lesson of the course). A plain post (`intent=create-series`),
 * without JavaScript too: on success, 303 to the first date's page,
 * audited (`series-created`, ids and counts only); on error, 400 with the
 * French messages beside the fields, values kept.
 */
import { data, redirect, useActionData, useLoaderData } from "react-router";
import { courseChoices, readSeriesForm, sessionFormValues, withCourseDefaults } from "~/courses/desk.server";
import { SeriesFields } from "~/courses/series-fields";
import { SessionForm } from "~/courses/session-form";
import { createSeries } from "~/courses/sessions.server";
import { audit } from "~/desk/audit.server";
import { DeskBackLink } from "~/desk/frame";
import { deskHandle, deskMeta } from "~/desk/meta";
import { readFormData } from "~/guards/body.server";
import type { Route } from "./+types/course-series";
import { dbContext, loggerContext, ownerContext } from "~/context.server";
import { getSiteSettings } from "~/settings/site.server";

export const handle = deskHandle;

/** Date inputs for the dates picked one by one (after the first): the courses sell up to 4 lessons. */
const PICKED_SLOTS = 7;

export async function loader({ context }: Route.LoaderArgs) {
  return {
    courses: courseChoices((await getSiteSettings(context)).prices),
    values: sessionFormValues(),
  };
}

export const meta: Route.MetaFunction = () => deskMeta("Nouvelle série de dates");

export async function action({ request, context }: Route.ActionArgs) {
  const owner = context.get(ownerContext);
  const form = await readFormData(request, 16 * 1024);
  if (form.get("intent") !== "create-series") return data({ errors: {}, values: null, series: null }, { status: 400 });
  // A duration or price left empty is the course's: one lesson's minutes, the price per lesson of Réglages × the dates.
  const result = readSeriesForm(withCourseDefaults(form, (await getSiteSettings(context)).prices, { series: true }));
  if (!result.ok) return data({ errors: result.errors, values: result.values, series: result.series }, { status: 400 });
  const { seriesId, sessionIds } = await createSeries(context.get(dbContext), result.fields, result.starts);
  await audit(
    context.get(dbContext),
    { actor: owner.userId, action: "series-created", details: { series: seriesId, dates: sessionIds.length } },
    context.get(loggerContext),
  );
  throw redirect(`/admin/cours/${sessionIds[0]}`, 303);
}

export default function NewSeries() {
  const { courses, values } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="mt-8">
      <DeskBackLink to="/admin/cours">Tous les cours</DeskBackLink>
      <h1 className="mt-4 text-3xl font-bold">Nouvelle série de dates</h1>
      <p className="mt-2 text-lg">
        Un cours en plusieurs séances : une inscription prend une place à chaque date, et la personne reçoit toutes les
        dates (e-mail, agenda, un rappel avant chaque séance). Le prix est celui de toutes les séances.
      </p>
      <SessionForm
        courses={courses}
        values={answer?.values ?? values}
        errors={answer?.errors}
        submitLabel="Créer la série"
        intent="create-series"
        idPrefix="series"
        dateLabel="Première date"
        priceLabel="Prix de la série (CHF)"
        series
      >
        <SeriesFields
          values={answer?.series ?? { repeat: "weekly", count: "", otherDates: [] }}
          errors={answer?.errors}
          slots={PICKED_SLOTS}
        />
      </SessionForm>
    </div>
  );
}
