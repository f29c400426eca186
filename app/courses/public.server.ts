/**
 * What the public pages show of sessions, made on the server so the pages'
 * JavaScript carries only the words: the date in words, the place, the
 * price, the places left ("3 places restantes", "1 place restante",
 * "Complet") and the state. Also the JSON-LD `Course` with its
 * `CourseInstance`s (schema.org, typed with schema-dts).
 */
import type { Course as CourseNode, CourseInstance, WithContext } from "schema-dts";
import type { Course } from "~/content/types";
import type { Database } from "~/db/client.server";
import { siteName, type StructuredData } from "~/seo/meta";
import { formatChf, formatDateTimeRange } from "~/utils/format";
import type { RenderHints } from "~/utils/render-cache";
import {
  courseBySlug,
  listSessions,
  placesLeft,
  sessionEnd,
  sessionState,
  type SessionRow,
  type SessionState,
  type SessionWithWaiting,
} from "./sessions.server";

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
  };
}

/**
 * Tells the render cache that a page listing `rows` (upcoming sessions)
 * changes when the first of them starts: it then shows as past, or leaves
 * the list (app/utils/render-cache.ts).
 */
export function changesWhenFirstStarts(hints: RenderHints | undefined, rows: readonly Pick<SessionRow, "startsAt">[]) {
  for (const row of rows) hints?.validUntil(row.startsAt);
}

/**
 * Sessions a visitor can see: not cancelled, not started, by date; one
 * course's when `courseId` is given. `hints`: the render cache's, told when
 * the first one starts.
 */
export async function upcomingSessions(
  db: Database,
  now: Date,
  courseId?: string,
  hints?: RenderHints,
): Promise<PublicSession[]> {
  const rows = await listSessions(db, { from: now, courseId, includeCancelled: false });
  changesWhenFirstStarts(hints, rows);
  return rows.map((row) => publicSession(row, now));
}

/** A session as a course card of `/` shows it: the date in words and the places left, with its link. */
export type CardSession = Pick<PublicSession, "id" | "when" | "placesLeft" | "placesText">;

/**
 * The next `perCourse` sessions of each course, by course id, for the
 * course cards of `/` (only what a card shows, to keep the page's data
 * small). A course without an upcoming session has no entry.
 * @throws whatever the database driver throws (the home page's loader
 * catches it: `/` never fails because of the sessions).
 */
export async function nextSessionsByCourse(
  db: Database,
  now: Date,
  perCourse = 2,
  hints?: RenderHints,
): Promise<Record<string, CardSession[]>> {
  const byCourse: Record<string, CardSession[]> = {};
  for (const { id, courseId, when, placesLeft, placesText } of await upcomingSessions(db, now, undefined, hints)) {
    const list = (byCourse[courseId] ??= []);
    if (list.length < perCourse) list.push({ id, when, placesLeft, placesText });
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
