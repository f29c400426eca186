/**
 * `/cours/inscription/{token}/calendrier.ics`: the calendar file of a
 * registration (app/courses/ics.server.ts), for "Ajouter à mon agenda" on
 * the confirmation page and in the mails. Reading it changes nothing (mail
 * scanners may follow it). An unknown or expired link answers 404.
 */
import { settingsFrom } from "~/config/settings.server";
import { findRegistrationByToken } from "~/courses/booking.server";
import { calendarFile } from "~/courses/ics.server";
import { courseBySlug } from "~/courses/sessions.server";
import type { Route } from "./+types/course-calendar";

export async function loader({ context, params }: Route.LoaderArgs) {
  const found = await findRegistrationByToken(context.db!, params.token);
  if (!found || found.registration.status === "cancelled" || found.session.cancelledAt) {
    return new Response("Ce lien n’est plus valable.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const siteUrl = settingsFrom(context).SITE_URL;
  const { session } = found;
  const course = courseBySlug(session.courseId);
  const text = calendarFile({
    id: session.id,
    title: course?.title ?? session.courseId,
    startsAt: new Date(session.startsAt),
    durationMinutes: session.durationMinutes,
    placeName: session.placeName,
    placeAddress: session.placeAddress,
    description: session.placeAccess,
    url: `${siteUrl}/cours/inscription/${params.token}`,
    host: new URL(siteUrl).hostname,
  });
  return new Response(text, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'attachment; filename="cours.ics"',
      "Cache-Control": "no-store",
    },
  });
}
