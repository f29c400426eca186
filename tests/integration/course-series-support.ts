/**
 * What the series tests share (course-series*.test.ts): the 4 weekly dates
 * across the end of summer time, their instants in UTC, the n-th person's
 * booking of the series, and a page's text as read.
 */
import { weeklyDates } from "../../app/courses/sessions.server";
import { bookingForm, postBooking } from "../support/harness";
import { COURSE_YEAR } from "../support/course-year";

/** The 4 dates: Tuesdays at 14:00 in Switzerland, two in summer time, two in winter time. */
export const DAYS = weeklyDates(`${COURSE_YEAR}-10-19`, 4);
/** Their instants in UTC: 12:00 in summer time (UTC+2), 13:00 in winter time (UTC+1). */
export const UTC_STARTS = [
  `${COURSE_YEAR}-10-19T12:00:00.000Z`,
  `${COURSE_YEAR}-10-26T12:00:00.000Z`,
  `${COURSE_YEAR}-11-02T13:00:00.000Z`,
  `${COURSE_YEAR}-11-09T13:00:00.000Z`,
];

/** The n-th person's booking of the series starting with `sessionId`: Jeanne « Série n », a telephone of her own. */
export const registration = (sessionId: number, n: number, extra: Record<string, string> = {}) =>
  bookingForm(sessionId, n, {
    firstName: "Jeanne",
    lastName: `Série ${n}`,
    phone: `079 2${String(n).padStart(6, "0")}`,
    email: `jeanne${n}@example.ch`,
    ...extra,
  });

/** An HTML page's text as read: React's text separators out, no-break spaces as spaces. */
export const readable = (html: string) => html.replaceAll("<!-- -->", "").replaceAll("\u00a0", " ");

/** POSTs a registration for « Applications mobiles » as a browser without JavaScript; the answer is not followed. */
export const register = (baseUrl: string, form: Record<string, string>) =>
  postBooking(baseUrl, "applications-mobiles", form);
