/**
 * The questions of `/questions` (issue 23, item 4) say only what the rest of
 * the site says: their prices are the services' prices, their places the
 * zones' towns, their links lead to pages and sections that exist.
 */
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { formatChf } from "~/utils/format";
import { defaultSettings } from "~/settings/site.server";
import { faqOf } from "./faq";
import { services } from "./services";
import { defaultZones, zonesOf } from "./zones";

const faq = faqOf(defaultSettings());
const zones = zonesOf(defaultZones);

const HOME_SECTIONS = ["accueil", "services", "cours", "a-propos", "blog", "contact"];
const text = faq.flatMap((entry) => [entry.question, ...entry.answer]).join("\n");

describe("the questions of /questions", () => {
  it("are 10 to 15, each with an anchor of its own, an answer and at least one link", () => {
    expect(faq.length).toBeGreaterThanOrEqual(10);
    expect(faq.length).toBeLessThanOrEqual(15);
    expect(new Set(faq.map((entry) => entry.id)).size).toBe(faq.length);
    for (const entry of faq) {
      expect(entry.answer.length, entry.id).toBeGreaterThan(0);
      expect(entry.links.length, entry.id).toBeGreaterThan(0);
    }
  });

  it("name every service's price and no other amount", () => {
    const prices = services.map((service) => formatChf(service.price.chf));
    for (const price of prices) expect(text).toContain(price);
    const amounts = text.match(/CHF\s?[\d’]+(?:\.–|\.\d\d)?/g) ?? [];
    for (const amount of amounts) expect(prices, amount).toContain(amount.replace(/\s/, " "));
  });

  it("name the zones' cantons and towns", () => {
    for (const zone of zones) {
      expect(text).toContain(zone.canton);
      for (const town of zone.towns) expect(text).toContain(town);
    }
  });

  it("link only to routes of the site and sections of the home page", () => {
    const paths = routes.map((route) => `/${route.path ?? ""}`);
    for (const link of faq.flatMap((entry) => entry.links)) {
      const [path, section] = link.href.split("#");
      if (section !== undefined) {
        expect(path, link.href).toBe("/");
        expect(HOME_SECTIONS, link.href).toContain(section);
      } else expect(paths, link.href).toContain(path);
    }
  });
});
