import { describe, expect, it } from "vitest";
import { COURSE_YEAR, courseYearAfter } from "./course-year";

describe("courseYearAfter", () => {
  it("is 2027 during 2026, then the next year with 2027's calendar", () => {
    expect(courseYearAfter(new Date("2026-01-01T00:00:00Z"))).toBe(2027);
    expect(courseYearAfter(new Date("2026-12-31T23:59:59Z"))).toBe(2027);
    expect(courseYearAfter(new Date("2027-01-01T00:00:00Z"))).toBe(2038);
    expect(courseYearAfter(new Date("2038-06-01T00:00:00Z"))).toBe(2049);
    expect(courseYearAfter(new Date("2049-06-01T00:00:00Z"))).toBe(2055);
  });

  it("puts 12 January on a Tuesday and the end of summer time on Sunday 31 October, always ahead", () => {
    expect(new Date(Date.UTC(COURSE_YEAR, 0, 12)).getUTCDay()).toBe(2);
    expect(new Date(Date.UTC(COURSE_YEAR, 9, 31)).getUTCDay()).toBe(0);
    expect(Date.UTC(COURSE_YEAR, 0, 1)).toBeGreaterThan(Date.now());
  });
});
