import { describe, expect, it } from "vitest";
import { courseChoices, minutesOfCourse, readSeriesForm, readSessionForm, withCourseDefaults } from "./desk.server";

const PRICES = { "small-group": 60, "one-to-one-course": 90, "one-to-one-support": 90 };

/** The desk's form as posted: the place and seats typed, `fields` over them. */
function posted(fields: Record<string, string>): FormData {
  const form = new FormData();
  const all = {
    date: "2027-03-02",
    time: "14:00",
    durationMinutes: "",
    placeName: "Salle paroissiale",
    placeAddress: "Rue du Lac 1, 1800 Vevey",
    placeAccess: "",
    capacity: "8",
    minimum: "4",
    priceChf: "",
    ...fields,
  };
  for (const [name, value] of Object.entries(all)) form.set(name, value);
  return form;
}

describe("the session and series forms start from the course", () => {
  it("reads each course's lesson from its duration", () => {
    expect(minutesOfCourse("securite")).toBe(120);
    expect(minutesOfCourse("applications-mobiles")).toBe(90);
    expect(courseChoices(PRICES).map((course) => course.durationMinutes)).not.toContain(null);
  });

  it("fills an empty price from Réglages and an empty duration from the course", () => {
    const session = readSessionForm(withCourseDefaults(posted({ courseId: "securite" }), PRICES));
    expect(session).toMatchObject({ ok: true, fields: { priceChf: 60, durationMinutes: 120 } });
  });

  it("proposes a series at the price per lesson times its dates, the course's count or the one typed", () => {
    const four = readSeriesForm(
      withCourseDefaults(posted({ courseId: "applications-mobiles", repeat: "weekly", count: "" }), PRICES, {
        series: true,
      }),
    );
    expect(four).toMatchObject({ ok: true, fields: { priceChf: 240, durationMinutes: 90 } });
    expect(four.ok && four.starts).toHaveLength(4);
    const three = readSeriesForm(
      withCourseDefaults(posted({ courseId: "applications-mobiles", repeat: "weekly", count: "3" }), PRICES, {
        series: true,
      }),
    );
    expect(three).toMatchObject({ ok: true, fields: { priceChf: 180 } });
  });

  it("keeps what the owner typed", () => {
    const typed = readSessionForm(
      withCourseDefaults(posted({ courseId: "securite", priceChf: "45", durationMinutes: "60" }), PRICES),
    );
    expect(typed).toMatchObject({ ok: true, fields: { priceChf: 45, durationMinutes: 60 } });
  });
});
