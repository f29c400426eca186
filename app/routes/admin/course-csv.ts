/**
 * `/admin/cours/:id/inscrits.csv`: the registrations of a session as CSV
 * (`registrantsCsvStream`, app/courses/desk.server.ts), for a spreadsheet, with
 * the attendance ticked on that date (a date of a series: the series'
 * registrations).
 */
import { data } from "react-router";
import { attendanceOf } from "~/courses/attendance.server";
import { listRegistrations } from "~/courses/registrations.server";
import { registrantsCsvStream } from "~/courses/desk.server";
import { getSession } from "~/courses/sessions.server";
import { idParam } from "~/desk/route-params.server";
import type { Route } from "./+types/course-csv";
import { dbContext } from "~/context.server";

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = idParam(params.id);
  if (!(await getSession(context.get(dbContext), id))) throw data(null, { status: 404 });
  const rows = await listRegistrations(context.get(dbContext), id);
  return new Response(registrantsCsvStream(rows, await attendanceOf(context.get(dbContext), id)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="seance-${id}-inscrits.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
