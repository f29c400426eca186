/**
 * `/cours/inscription/{token}/calendrier.ics`: the calendar file of a
 * registration (app/courses/ics.server.ts), for "Ajouter à mon agenda" on
 * the confirmation page and in the mails (a series: one event per date; each says until when the seat may
 * be cancelled). Reading it changes nothing (mail
 * scanners may follow it). An unknown or expired link answers 404.
 */
import { everyDateCancelled, findRegistrationByToken } from "~/courses/registrations.server";
import { CALENDAR_FILE, registrationCalendar } from "~/courses/ics.server";
import { registrationPath } from "~/courses/links";
import { courseBySlug } from "~/courses/sessions.server";
import type { Route } from "./+types/course-calendar";
import { needsDatabase } from "~/utils/database-down.server";
import { settingsContext, dbContext } from "~/context.server";
import { cancelDeadline } from "~/courses/deadlines.server";
import { getSiteSettings } from "~/settings/site.server";

export async function loader({ context, params }: Route.LoaderArgs) {
  const found = await needsDatabase(context, () => findRegistrationByToken(context.get(dbContext), params.token));
  if (!found || found.registration.status === "cancelled" || everyDateCancelled(found)) {
    return new Response("Ce lien n’est plus valable.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const { session, lessons } = found;
  // The cancellation deadline in each event (decision 052), counted from the first date still held.
  const hours = (await getSiteSettings(context)).courses.cancelDeadlineHours;
  const text = registrationCalendar({
    cancelUntil: cancelDeadline((lessons[0] ?? session).startsAt, hours),
    session,
    lessons,
    registrationId: found.registration.id,
    courseTitle: courseBySlug(session.courseId)?.title ?? session.courseId,
    manageUrl: `${context.get(settingsContext).SITE_URL}${registrationPath(params.token)}`,
  });
  return new Response(text, {
    headers: {
      "Content-Type": CALENDAR_FILE.contentType,
      "Content-Disposition": `attachment; filename="${CALENDAR_FILE.name}"`,
      "Cache-Control": "no-store",
    },
  });
}
