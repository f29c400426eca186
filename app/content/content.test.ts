/**
 * Content invariants: the business constants of spec section 9 are what the
 * data says, so a typo in a content file fails the tests, not the page.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { audienceCards, audienceSection } from "./audience";
import { courses } from "./courses";
import { contactSection } from "./home";
import { defaultHours, openingHoursOf } from "./hours";
import { contactContent } from "~/home/content.server";
import { pictures } from "./pictures";
import { devices, services } from "./services";
import { statistics } from "./statistics";
import { defaultZones, zonesOf } from "./zones";

const openingHours = openingHoursOf(defaultHours);
const zones = zonesOf(defaultZones);

const contentDir = path.dirname(new URL(import.meta.url).pathname);

describe("services (spec section 9)", () => {
  it("has the three services with their prices, in the contact form's order", () => {
    expect(services.map((service) => [service.id, service.price.chf, service.price.per])).toEqual([
      ["small-group", 55, "séance"],
      ["one-to-one-course", 95, "heure"],
      ["one-to-one-support", 70, "heure"],
    ]);
  });
  it("sells groups of 4 to 8 people, 2 hours a session", () => {
    const group = services[0]!;
    expect(group.priceNote).toMatch(/4 à 8 personnes/);
    expect(group.priceNote).toMatch(/2h par séance/);
    expect(group.features.join(" ")).toMatch(/8 personnes au maximum/);
  });
  it("lists the five device badges", () => {
    expect(devices.map((device) => device.name)).toEqual(["Windows PC", "Mac", "Android", "Samsung", "iPhone"]);
  });
});

describe("courses (spec section 9)", () => {
  it("has the four courses with their sessions, level and group size", () => {
    expect(courses.map((course) => [course.duration, course.level, course.groupSize])).toEqual([
      ["3 séances de 2h", "Débutant", "6 à 8 personnes"],
      ["2 séances de 2h", "Intermédiaire", "4 à 6 personnes"],
      ["4 séances de 1h30", "Débutant", "6 à 8 personnes"],
      ["Une rencontre par mois, 1h30", "Tous niveaux", "8 à 12 personnes"],
    ]);
  });
  it("gives each course five distinct topics", () => {
    for (const course of courses) expect(new Set(course.topics).size).toBe(5);
  });
});

describe("claims, hours and zones", () => {
  it("shows 500+, 15+, 3 cantons and 100 %", () => {
    expect(statistics.map((stat) => stat.value.replace(/\s/g, " "))).toEqual(["500+", "15+", "3", "100 %"]);
  });
  it("opens Mon-Fri 9h-18h, Sat 9h-16h, closed on Sunday", () => {
    expect(openingHours.map(({ days, hours }) => ({ days, hours }))).toEqual([
      { days: "Lundi – vendredi", hours: "9h00–18h00" },
      { days: "Samedi", hours: "9h00–16h00" },
      { days: "Dimanche", hours: "Fermé" },
    ]);
    // The French label names the first and last of the days the row covers (the structured data uses those).
    const french = {
      Monday: "lundi",
      Tuesday: "mardi",
      Wednesday: "mercredi",
      Thursday: "jeudi",
      Friday: "vendredi",
      Saturday: "samedi",
      Sunday: "dimanche",
    };
    for (const row of openingHours) {
      const names = [row.dayOfWeek[0]!, row.dayOfWeek.at(-1)!].map((day) => french[day]);
      expect(row.days.toLowerCase(), row.days).toBe(names[0] === names[1] ? names[0] : `${names[0]} – ${names[1]}`);
    }
    // The phone card writes the weekday hours as the hours card does.
    expect(contactContent({ hours: defaultHours, zones: defaultZones }).cards.phone.note).toBe(
      "Lundi – vendredi, 9h00–18h00",
    );
    expect(contactSection.cards.email.note).toBe("Réponse sous 24h");
  });
  it("serves Vaud, Genève and Fribourg with their towns", () => {
    expect(zones.map((zone) => [zone.code, zone.towns])).toEqual([
      ["VD", ["Lausanne", "Montreux", "Yverdon", "Nyon"]],
      ["GE", ["Genève", "Carouge", "Meyrin", "Vernier"]],
      ["FR", ["Fribourg", "Bulle", "Romont", "Morat"]],
    ]);
  });
});

describe("audience", () => {
  it("has the four audience cards under the spec's heading", () => {
    expect(audienceSection.title).toBe("À qui s’adressent nos services\u202f?");
    expect(audienceCards).toHaveLength(4);
  });
});

describe("the words of the content files", () => {
  const sources = fs
    .readdirSync(contentDir)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => fs.readFileSync(path.join(contentDir, file), "utf8"));

  it("call the friends' get-together Digiware, never Superware", () => {
    for (const source of sources) expect(source).not.toMatch(/superware/i);
    expect(sources.join("\n")).toMatch(/Digiware/);
  });
});

describe("pictures", () => {
  it("has one file for every picture slot, and a French description", () => {
    const files = fs.readdirSync(path.join(contentDir, "pictures"));
    for (const [slot, info] of Object.entries(pictures)) {
      expect(
        files.some((file) => file.replace(/\.[^.]+$/, "") === slot),
        `${slot} has a file`,
      ).toBe(true);
      expect(info.alt.length, `${slot} has an alt text`).toBeGreaterThan(15);
    }
  });
});
