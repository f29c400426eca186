import { describe, expect, it } from "vitest";
import { utcToZurich, zurichDaysLater, zurichToUtc } from "./zurich-time.server";

describe("Swiss wall-clock time and UTC", () => {
  it("reads a winter and a summer time at their own offset", () => {
    expect(zurichToUtc("2027-01-12", "14:00").toISOString()).toBe("2027-01-12T13:00:00.000Z");
    expect(zurichToUtc("2026-07-01", "14:00").toISOString()).toBe("2026-07-01T12:00:00.000Z");
    expect(utcToZurich(new Date("2027-01-12T13:00:00Z"))).toEqual({ date: "2027-01-12", time: "14:00" });
    expect(utcToZurich(new Date("2026-07-01T22:30:00Z"))).toEqual({ date: "2026-07-02", time: "00:30" });
  });

  it("takes the first of the hour that happens twice in late October", () => {
    // 2 h 30 on 25 October 2026 is first 00:30 UTC (summer time), then 01:30 UTC (winter time).
    expect(zurichToUtc("2026-10-25", "02:30").toISOString()).toBe("2026-10-25T00:30:00.000Z");
    expect(utcToZurich(new Date("2026-10-25T01:30:00Z"))).toEqual({ date: "2026-10-25", time: "02:30" });
    expect(zurichToUtc("2026-10-25", "03:00").toISOString()).toBe("2026-10-25T02:00:00.000Z");
  });

  it("reads a time the spring change skips one hour later", () => {
    // 2 h 30 on 29 March 2026 does not exist: 3 h 30 summer time.
    expect(zurichToUtc("2026-03-29", "02:30").toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(zurichToUtc("2026-03-29", "03:00").toISOString()).toBe("2026-03-29T01:00:00.000Z");
  });

  it("keeps the Swiss time a week later across a change of offset", () => {
    expect(zurichDaysLater("2026-10-20T12:00:00Z", 7).toISOString()).toBe("2026-10-27T13:00:00.000Z");
    expect(zurichDaysLater(new Date("2026-03-24T13:00:00Z"), 7).toISOString()).toBe("2026-03-31T12:00:00.000Z");
    expect(zurichDaysLater("2026-12-28T13:00:00Z", 7).toISOString()).toBe("2027-01-04T13:00:00.000Z");
  });

  it("refuses a date or a time that is not one", () => {
    expect(() => zurichToUtc("2026-02-30", "14:00")).toThrow(RangeError);
    expect(() => zurichToUtc("2026-13-01", "14:00")).toThrow(RangeError);
    expect(() => zurichToUtc("2026-10-25", "24:00")).toThrow(RangeError);
    expect(() => zurichToUtc("25.10.2026", "14:00")).toThrow(RangeError);
    expect(() => utcToZurich(new Date("nonsense"))).toThrow(RangeError);
  });
});
