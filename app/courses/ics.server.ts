/**
 * The calendar file of a registration (RFC 5545), made by the `ics`
 * package (https://github.com/adamgibbons/ics): one VEVENT whose start is
 * written in UTC (`DTSTART:20261025T130000Z`), so every calendar shows it
 * at the right local hour whatever the daylight-saving rules, with the
 * session's place as LOCATION, its access notes and the cancellation
 * deadline as DESCRIPTION, and an alarm the day before.
 * A series' registration gets one VEVENT per date still held, each with its
 * own UID (`cours-{session id}-{registration id}@host`: two people of one
 * family sharing a calendar get an event each) and alarm.
 * `registrationCalendar` makes a registration's file, as the confirmation
 * page offers it (`/cours/inscription/{token}/calendrier.ics`) and the
 * confirmation mail attaches it (`calendarAttachment`).
 */
import { createEvent, createEvents, type EventAttributes } from "ics";
import type { MailAttachment } from "~/db/schema";
import { cancelUntilWords } from "./deadlines.server";
import type { SessionRow } from "./sessions.server";

/** The calendar file's name and MIME type, for the download and the mail's attachment. */
export const CALENDAR_FILE = { name: "cours.ics", contentType: "text/calendar; charset=utf-8" } as const;

/** What the calendar file says about a session. */
export interface CalendarSession {
  /** The session's id: the event's UID is made from it and `registrationId` (the same registration's date always has the same UID). */
  id: number;
  /** The registration's id, for the UID; absent for a file not tied to a registration. */
  registrationId?: number;
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
  /** The site's host, for the UID (`cours-12-345@example.ch`). */
  host: string;
}

/**
 * The `.ics` text of a session (CRLF line endings, as RFC 5545 requires).
 * @throws Error when the `ics` package refuses the event (an invalid date).
 */
export function calendarFile(session: CalendarSession): string {
  const { error, value } = createEvent(calendarEvent(session));
  if (error || !value) throw new Error(`calendar file refused: ${error?.message ?? "no value"}`);
  return value;
}

/** The `ics` package's event of a session. */
function calendarEvent(session: CalendarSession): EventAttributes {
  return {
    uid: `cours-${session.id}${session.registrationId === undefined ? "" : `-${session.registrationId}`}@${session.host}`,
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
  };
}

/**
 * The `.ics` text of several sessions (a series' dates): one VEVENT each, in one VCALENDAR.
 * @throws Error when the `ics` package refuses an event.
 */
export function calendarFileOf(sessions: readonly CalendarSession[]): string {
  const { error, value } = createEvents(sessions.map(calendarEvent), { productId: "formation-informatique/cours" });
  if (error || !value) throw new Error(`calendar file refused: ${error?.message ?? "no value"}`);
  return value;
}

type CalendarRow = Pick<
  SessionRow,
  "id" | "startsAt" | "durationMinutes" | "placeName" | "placeAddress" | "placeAccess"
>;

/**
 * What a registration's calendar file needs: its session, its dates
 * (`lessons`, a series' dates still held; the session alone when absent),
 * the course's title, the registration's page.
 */
export interface RegistrationCalendar {
  session: CalendarRow;
  lessons?: readonly CalendarRow[];
  courseTitle: string;
  /** The registration's id: with each date's id, it makes the event's UID. */
  registrationId: number;
  /** `{SITE_URL}/cours/inscription/{token}`: the event's URL; its host makes the UID. */
  manageUrl: string;
  /** Until when the seat may be cancelled by its link (decision 052): said in each event's DESCRIPTION. */
  cancelUntil?: Date;
}

/**
 * The `.ics` text of a registration's session, or of each of its dates (`calendarFileOf`).
 * @throws Error when `manageUrl` is not a URL or the `ics` package refuses the event.
 */
export function registrationCalendar({
  session,
  lessons,
  courseTitle,
  registrationId,
  manageUrl,
  cancelUntil,
}: RegistrationCalendar): string {
  const host = new URL(manageUrl).hostname;
  const deadline = cancelUntil
    ? `${cancelUntilWords(cancelUntil)} par le lien ${manageUrl} ; ensuite, par téléphone.`
    : "";
  const events = (lessons ?? [session]).map((lesson) => ({
    id: lesson.id,
    registrationId,
    title: courseTitle,
    startsAt: new Date(lesson.startsAt),
    durationMinutes: lesson.durationMinutes,
    placeName: lesson.placeName,
    placeAddress: lesson.placeAddress,
    description: [lesson.placeAccess, deadline].filter(Boolean).join("\n\n"),
    url: manageUrl,
    host,
  }));
  return events.length === 1 ? calendarFile(events[0]!) : calendarFileOf(events);
}

/** The registration's calendar file as a mail's attachment (`cours.ics`). @throws as `registrationCalendar`. */
export function calendarAttachment(registration: RegistrationCalendar): MailAttachment {
  return {
    filename: CALENDAR_FILE.name,
    contentType: CALENDAR_FILE.contentType,
    content: registrationCalendar(registration),
  };
}
