import { describe, expect, it } from "vitest";
import {
  formatChf,
  formatDate,
  formatDateTime,
  formatDateTimeRange,
  formatSpreadsheetDateTime,
  formatTime,
  isoDateInZurich,
  ofName,
  topicPreview,
} from "./format";

describe("formatChf", () => {
  it("writes whole francs the Swiss way", () => {
    expect(formatChf(55)).toBe("CHF 55.–");
    expect(formatChf(95)).toBe("CHF 95.–");
    expect(formatChf(1200)).toBe("CHF 1’200.–");
  });
  it("keeps centimes when there are some", () => {
    expect(formatChf(55.5)).toBe("CHF 55.50");
  });
  it("refuses impossible amounts", () => {
    expect(() => formatChf(-1)).toThrow(RangeError);
    expect(() => formatChf(Number.NaN)).toThrow(RangeError);
  });
});

describe("formatDate", () => {
  it("writes an ISO date in French", () => {
    expect(formatDate("2024-11-15")).toBe("15 novembre 2024");
    expect(formatDate("2024-11-01")).toBe("1er novembre 2024");
  });
  it("refuses a date that is not one", () => {
    expect(() => formatDate("15/11/2024")).toThrow(RangeError);
  });
});

describe("formatTime", () => {
  it("writes a 24-hour time the Swiss French way", () => {
    expect(formatTime("09:00")).toBe("9h00");
    expect(formatTime("18:30")).toBe("18h30");
    expect(formatTime("00:05")).toBe("0h05");
  });
  it("refuses a time that is not one", () => {
    for (const wrong of ["9:00", "24:00", "12:60", "9h00"]) expect(() => formatTime(wrong), wrong).toThrow(RangeError);
  });
});

describe("topicPreview", () => {
  it("shows the first three of five topics and counts the other two", () => {
    expect(topicPreview(["a", "b", "c", "d", "e"])).toEqual({
      visible: ["a", "b", "c"],
      more: "... et 2 autres sujets",
    });
  });
  it("uses the singular for one remaining topic and nothing when none remain", () => {
    expect(topicPreview(["a", "b", "c", "d"]).more).toBe("... et 1 autre sujet");
    expect(topicPreview(["a", "b", "c"]).more).toBeNull();
    expect(topicPreview(["a"])).toEqual({ visible: ["a"], more: null });
  });
});

describe("moments in Swiss time", () => {
  it("write a winter and a summer moment in French words, 1er for the first", () => {
    expect(formatDateTime("2027-01-12T13:00:00Z")).toBe("mardi 12 janvier 2027, 14\u00a0h\u00a000");
    expect(formatDateTime("2026-07-01T06:05:00Z")).toBe("mercredi 1er juillet 2026, 8\u00a0h\u00a005");
  });
  it("write a moment as a Swiss spreadsheet reads it, in Swiss time", () => {
    expect(formatSpreadsheetDateTime("2026-11-24T13:05:00Z")).toBe("24.11.2026 14:05");
    expect(formatSpreadsheetDateTime(new Date("2026-07-01T22:30:00Z"))).toBe("02.07.2026 00:30");
  });
  it("give the Swiss calendar day, which may be the next day in UTC terms", () => {
    expect(isoDateInZurich("2026-12-31T23:30:00Z")).toBe("2027-01-01");
    expect(isoDateInZurich("2026-03-05T10:00:00Z")).toBe("2026-03-05");
  });
  it("refuse an invalid date", () => {
    expect(() => formatSpreadsheetDateTime("not a date")).toThrow(RangeError);
  });
});

describe("formatDateTimeRange", () => {
  it("writes a session in words, in Swiss time, summer or winter", () => {
    expect(formatDateTimeRange("2027-01-12T13:00:00Z", "2027-01-12T15:00:00Z")).toBe(
      "mardi 12 janvier 2027, 14\u00a0h\u00a000 – 16\u00a0h\u00a000",
    );
    // The last Sunday of October: winter time from 3 h 00 that morning.
    expect(formatDateTimeRange("2026-10-25T13:00:00Z", "2026-10-25T14:30:00Z")).toBe(
      "dimanche 25 octobre 2026, 14\u00a0h\u00a000 – 15\u00a0h\u00a030",
    );
    expect(formatDateTime("2027-07-01T07:00:00Z")).toBe("jeudi 1er juillet 2027, 9\u00a0h\u00a000");
  });
  it("writes the end in full when it falls on another day", () => {
    expect(formatDateTimeRange("2027-01-12T22:00:00Z", "2027-01-13T00:00:00Z")).toBe(
      "mardi 12 janvier 2027, 23\u00a0h\u00a000 – mercredi 13 janvier 2027, 1\u00a0h\u00a000",
    );
  });
});

describe("ofName", () => {
  it("elides « de » before a vowel, keeps it before a consonant or an H", () => {
    expect(ofName("Odette Rochat")).toBe("d’Odette Rochat");
    expect(ofName("Émile")).toBe("d’Émile");
    expect(ofName("Yves")).toBe("d’Yves");
    expect(ofName("Marie")).toBe("de Marie");
    expect(ofName("Hugo")).toBe("de Hugo");
  });
});
