/**
 * What the public pages show of sessions, made on the server so the pages'
 * JavaScript carries only the words: the date in words, the place, the
 * price and how it is paid, the places left ("3 places restantes", "1 place restante",
 * "Complet") and the state. A series is one choice: its first session's
 * number (what the form posts), its dates in words, the seats free on every
 * date (`upcomingChoices`); a series whose first date has begun is no longer
 * offered. Also the JSON-LD `Course` with its `CourseInstance`s (schema.org,
 * typed with schema-dts).
 */
import type { Course as CourseNode, CourseInstance, WithContext } from "schema-dts";
import type { Course } from "~/content/types";
import type { Database } from "~/db/client.server";
import type { PaymentMode } from "~/content/payment";
import type { StructuredData } from "~/utils/meta";
import { siteName } from "~/content/site-name";
import { formatChf, formatDateTime, formatDateTimeRange } from "~/utils/format";
import { readSiteSettings } from "~/settings/site.server";
import { cancelDeadline } from "./deadlines.server";
import type { RenderHints } from "~/utils/render-cache";
import {
  courseBySlug,
  lessonLines,
  listSessions,
  placesLeft,
  seriesSessions,
  sessionEnd,
  sessionState,
  type SessionRow,
  type SessionState,
  type SessionWithWaiting,
} from "./sessions.server";
import { seriesLessons } from "./seats.server";

/** A session as a visitor sees it. */
export interface PublicSession {
  id: number;
  courseId: string;
  courseTitle: string;
  /** "mardi 12 janvier 2027, 14 h 00 – 16 h 00". */
  when: string;
  placeName: string;
  placeAddress: string;
  placeAccess: string;
  /** "CHF 55.–". */
  price: string;
  placesLeft: number;
  state: SessionState;
  /** "3 places restantes", "1 place restante", "Complet", "Annulée", "Passée". */
  placesText: string;
  /** People on the waiting list. */
  waiting: number;
  /** A series' dates in words, by start (`when` is then the first); null for a single date. */
  lessons: string[] | null;
  /** How it is paid (a series: the same on each date); words in app/content/payment.ts. */
  payment: PaymentMode;
  /** Until when a seat may be cancelled online, in words (decision 052); on a course's page only. */
  cancelUntil?: string;
}

/** The words for the places left of a session in `state`. */
export function placesText(state: SessionState, left: number): string {
  if (state === "annulee") return "Annulée";
  if (state === "passee") return "Passée";
  if (left === 0) return "Complet";
  return left === 1 ? "1 place restante" : `${left} places restantes`;
}

/** A session row as a visitor sees it at `now`. */
export function publicSession(session: SessionWithWaiting, now: Date): PublicSession {
  const state = sessionState(session, session.waiting, now);
  const left = state === "ouverte" ? placesLeft(session, session.waiting) : 0;
  return {
    id: session.id,
    courseId: session.courseId,
    courseTitle: courseBySlug(session.courseId)?.title ?? session.courseId,
    when: formatDateTimeRange(session.startsAt, sessionEnd(session)),
    placeName: session.placeName,
    placeAddress: session.placeAddress,
    placeAccess: session.placeAccess,
    price: formatChf(session.priceChf),
    placesLeft: left,
    state,
    placesText: placesText(state, left),
    waiting: session.waiting,
    lessons: null,
    payment: session.payment,
  };
}

/** What a visitor chooses from: a single session, or a series as its anchor with its dates. */
export interface Choice {
  /** The row the choice stands for: a single session; for a series, its first date with the anchor's id and waiting list, and the seats taken on its fullest date. */
  row: SessionWithWaiting;
  /** A series' dates still held, by start; null for a single session. */
  lessons: SessionRow[] | null;
  /** Until when a seat may be cancelled by its link (Réglages' hours before the first date, decision 052). */
  cancelUntil: Date;
}

/**
 * The choices a visitor sees (not cancelled, not begun), by first date:
 * each single session, and each series once, while its first date is to
 * come, each with its cancellation deadline (Réglages). `hints`: the render
 * cache's, told when the first of them starts.
 * @throws the driver's error.
 */
export async function upcomingChoices(
  db: Database,
  now: Date,
  courseId?: string,
  hints?: RenderHints | null,
): Promise<Choice[]> {
  const rows = await listSessions(db, { from: now, courseId, includeCancelled: false });
  changesWhenFirstStarts(hints, rows);
  const hours = (await readSiteSettings(db)).courses.cancelDeadlineHours;
  const seriesIds = rows.flatMap((row) => (row.seriesId === null ? [] : [row.seriesId]));
  const bySeries = new Map<number, SessionWithWaiting[]>();
  for (const session of await seriesSessions(db, seriesIds)) {
    bySeries.set(session.seriesId!, [...(bySeries.get(session.seriesId!) ?? []), session]);
  }
  const choices: Choice[] = [];
  for (const row of rows) {
    if (row.seriesId === null) {
      choices.push({ row, lessons: null, cancelUntil: cancelDeadline(row.startsAt, hours) });
      continue;
    }
    const all = bySeries.get(row.seriesId);
    if (!all) continue;
    bySeries.delete(row.seriesId);
    const lessons = seriesLessons(all);
    const first = lessons[0];
    if (!first || new Date(first.startsAt).getTime() <= now.getTime()) continue;
    const anchor = all[0]!;
    const fullest = Math.max(...all.map((session) => session.seatsTaken - session.capacity)) + anchor.capacity;
    choices.push({
      row: { ...first, id: anchor.id, capacity: anchor.capacity, seatsTaken: fullest, waiting: anchor.waiting },
      lessons,
      cancelUntil: cancelDeadline(first.startsAt, hours),
    });
  }
  return choices;
}

/** A choice as a visitor sees it at `now`. */
export function publicChoice({ row, lessons, cancelUntil }: Choice, now: Date): PublicSession {
  const shown = { ...publicSession(row, now), cancelUntil: formatDateTime(cancelUntil) };
  if (!lessons) return shown;
  return { ...shown, lessons: lessonLines(lessons) };
}

/**
 * Tells the render cache that a page listing `rows` (upcoming sessions)
 * changes when the first of them starts: it then shows as past, or leaves
 * the list (app/utils/render-cache.ts).
 */
export function changesWhenFirstStarts(
  hints: RenderHints | null | undefined,
  rows: readonly Pick<SessionRow, "startsAt">[],
) {
  for (const row of rows) hints?.validUntil(row.startsAt);
}

/**
 * Sessions a visitor can see: not cancelled, not started, by date, a
 * series once with its dates (`upcomingChoices`); one course's when
 * `courseId` is given. `hints`: the render cache's, told when
 * the first one starts.
 */
export async function upcomingSessions(
  db: Database,
  now: Date,
  courseId?: string,
  hints?: RenderHints | null,
): Promise<PublicSession[]> {
  const choices = await upcomingChoices(db, now, courseId, hints);
  return choices.map((choice) => publicChoice(choice, now));
}

/** The next sessions of one course: the first few as a visitor sees them, and how many are to come in all. */
export interface CourseDates {
  sessions: PublicSession[];
  /** Every upcoming choice of the course (a series counts once), shown or not. */
  total: number;
}

/**
 * The next `perCourse` choices of each course (`upcomingChoices`: a series
 * once) as a visitor sees them, with how many each course has to come, by
 * course id; a course without an upcoming session has no entry. Only the
 * shown ones are put in words. `hints`: the render cache's, told when the
 * first of all starts (a page listing them changes then).
 * @throws the driver's error.
 */
export async function upcomingByCourse(
  db: Database,
  now: Date,
  perCourse: number,
  hints?: RenderHints | null,
): Promise<Record<string, CourseDates>> {
  const byCourse: Record<string, CourseDates> = {};
  for (const choice of await upcomingChoices(db, now, undefined, hints)) {
    const dates = (byCourse[choice.row.courseId] ??= { sessions: [], total: 0 });
    dates.total++;
    if (dates.sessions.length < perCourse) dates.sessions.push(publicChoice(choice, now));
  }
  return byCourse;
}

/** A session as a course card of `/` shows it: the date in words and the places left, with its link. */
export type CardSession = Pick<PublicSession, "id" | "when" | "placesLeft" | "placesText">;

/**
 * The next `perCourse` sessions of each course (a series once, its first
 * date followed by its number of lessons), by course id, for the
 * course cards of `/` (only what a card shows, to keep the page's data
 * small). A course without an upcoming session has no entry.
 * @throws whatever the database driver throws (the home page's loader
 * catches it: `/` never fails because of the sessions).
 */
export async function nextSessionsByCourse(
  db: Database,
  now: Date,
  perCourse = 2,
  hints?: RenderHints | null,
): Promise<Record<string, CardSession[]>> {
  const byCourse: Record<string, CardSession[]> = {};
  for (const [courseId, { sessions }] of Object.entries(await upcomingByCourse(db, now, perCourse, hints))) {
    // A series shows its first date and how many there are ("…, 4 séances").
    byCourse[courseId] = sessions.map(({ id, when, placesLeft, placesText, lessons }) => ({
      id,
      when: lessons ? `${when}, ${lessons.length} séances` : when,
      placesLeft,
      placesText,
    }));
  }
  return byCourse;
}

/**
 * JSON-LD of `/cours/{slug}`: the course and its upcoming sessions as
 * `CourseInstance` (start and end in UTC ISO, the place, the offer with its
 * price and availability). Google's guide:
 * https://developers.google.com/search/docs/appearance/structured-data/course-info
 */
export function courseStructuredData(
  course: Course,
  sessions: readonly SessionWithWaiting[],
  now: Date,
  pageUrl: string,
): StructuredData {
  const instances: CourseInstance[] = sessions.map((session) => ({
    "@type": "CourseInstance",
    courseMode: "Onsite",
    startDate: new Date(session.startsAt).toISOString(),
    endDate: sessionEnd(session).toISOString(),
    location: { "@type": "Place", name: session.placeName, address: session.placeAddress },
    offers: {
      "@type": "Offer",
      price: session.priceChf,
      priceCurrency: "CHF",
      url: pageUrl,
      availability:
        publicSession(session, now).placesLeft > 0 ? "https://schema.org/InStock" : "https://schema.org/SoldOut",
    },
  }));
  const node: WithContext<CourseNode> = {
    "@context": "https://schema.org",
    "@type": "Course",
    name: course.title,
    description: course.description,
    url: pageUrl,
    inLanguage: "fr-CH",
    provider: { "@type": "Organization", name: siteName, url: new URL("/", pageUrl).href },
    hasCourseInstance: instances,
  };
  return node as unknown as StructuredData;
}
