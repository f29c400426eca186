import { describe, expect, it } from "vitest";
import { registrationCalendar } from "./ics.server";

const lesson = (id: number, startsAt: string) => ({
  id,
  startsAt,
  durationMinutes: 120,
  placeName: "Salle paroissiale",
  placeAddress: "Rue du Lac 1, 1800 Vevey",
  placeAccess: "",
});
const uids = (text: string) => [...text.matchAll(/^UID:(.+)\r$/gm)].map((match) => match[1]);

describe("the calendar file's event UIDs", () => {
  it("are per registration: a couple sharing a calendar gets an event each, the same one every time", () => {
    const common = {
      session: lesson(12, "2027-01-12T13:00:00.000Z"),
      courseTitle: "Sécurité en ligne",
      manageUrl: "https://example.ch/cours/inscription/abc",
    };
    const hers = uids(registrationCalendar({ ...common, registrationId: 301 }));
    const his = uids(registrationCalendar({ ...common, registrationId: 302 }));
    expect(hers).toHaveLength(1);
    expect(hers[0]).not.toBe(his[0]);
    expect(uids(registrationCalendar({ ...common, registrationId: 301 }))).toEqual(hers);
  });

  it("differ for each date of a series' registration", () => {
    const lessons = [lesson(12, "2027-01-12T13:00:00.000Z"), lesson(13, "2027-01-19T13:00:00.000Z")];
    const text = registrationCalendar({
      session: lessons[0]!,
      lessons,
      courseTitle: "Sécurité en ligne",
      registrationId: 301,
      manageUrl: "https://example.ch/cours/inscription/abc",
    });
    expect(new Set(uids(text)).size).toBe(2);
  });
});
