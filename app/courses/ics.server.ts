/**
 * The calendar file of a registration (RFC 5545), made by the `ics`
 * package (https://github.com/adamgibbons/ics): one VEVENT whose start is
 * written in UTC (`DTSTART:20261025T130000Z`), so every calendar shows it
 * at the right local hour whatever the daylight-saving rules, with the
 * session's place as LOCATION and an alarm the day before.
 * `registrationCalendar` makes a registration's file, as the confirmation
 * page offers it (`/cours/inscription/{token}/calendrier.ics`) and the
 * confirmation mail attaches it (`calendarAttachment`).
 */
import { createEvent } from "ics";
import type { MailAttachment } from "~/db/schema";
import type { SessionRow } from "./sessions.server";

/** The calendar file's name and MIME type, for the download and the mail's attachment. */
export const CALENDAR_FILE = { name: "cours.ics", contentType: "text/calendar; charset=utf-8" } as const;

/** What the calendar file says about a session. */
export interface CalendarSession {
  /** The session's id: the event's UID is made from it (the same session always has the same UID). */
  id: number;
  /** The course's title, the event's SUMMARY. */
  title: string;
  startsAt: Date;
  durationMinutes: number;
  placeName: string;
  placeAddress: string;
  /** Access notes and the like, the event's DESCRIPTION. */
  description: string;
  /** The confirmation page (the event's URL). */
  url: string;
  /** The site's host, for the UID (`cours-12@example.ch`). */
  host: string;
}

/**
 * The `.ics` text of a session (CRLF line endings, as RFC 5545 requires).
 * @throws Error when the `ics` package refuses the event (an invalid date).
 */
export function calendarFile(session: CalendarSession): string {
  const { error, value } = createEvent({
    uid: `cours-${session.id}@${session.host}`,
    productId: "formation-informatique/cours",
    title: session.title,
    start: session.startsAt.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    duration: { minutes: session.durationMinutes },
    location: `${session.placeName}, ${session.placeAddress}`,
    description: session.description,
    url: session.url,
    status: "CONFIRMED",
    alarms: [{ action: "display", description: session.title, trigger: { hours: 24, before: true } }],
  });
  if (error || !value) throw new Error(`calendar file refused: ${error?.message ?? "no value"}`);
  return value;
}

/** What a registration's calendar file needs: its session, the course's title, the registration's page. */
export interface RegistrationCalendar {
  session: Pick<SessionRow, "id" | "startsAt" | "durationMinutes" | "placeName" | "placeAddress" | "placeAccess">;
  courseTitle: string;
  /** `{SITE_URL}/cours/inscription/{token}`: the event's URL; its host makes the UID. */
  manageUrl: string;
}

/**
 * The `.ics` text of a registration's session (`calendarFile`).
 * @throws Error when `manageUrl` is not a URL or the `ics` package refuses the event.
 */
export function registrationCalendar({ session, courseTitle, manageUrl }: RegistrationCalendar): string {
  return calendarFile({
    id: session.id,
    title: courseTitle,
    startsAt: new Date(session.startsAt),
    durationMinutes: session.durationMinutes,
    placeName: session.placeName,
    placeAddress: session.placeAddress,
    description: session.placeAccess,
    url: manageUrl,
    host: new URL(manageUrl).hostname,
  });
}

/** The registration's calendar file as a mail's attachment (`cours.ics`). @throws as `registrationCalendar`. */
export function calendarAttachment(registration: RegistrationCalendar): MailAttachment {
  return {
    filename: CALENDAR_FILE.name,
    contentType: CALENDAR_FILE.contentType,
    content: registrationCalendar(registration),
  };
}
