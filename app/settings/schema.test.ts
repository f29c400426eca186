/**
 * The shapes of Réglages: the content files' values fit them (they are the
 * defaults), and each desk field turns what an owner types into the stored
 * value, or into the French message shown beside it.
 */
import { describe, expect, it } from "vitest";
import { defaultSettings } from "./site.server";
import { defaultHours } from "~/content/hours";
import { services } from "~/content/services";
import {
  formSchemas,
  formValuesOf,
  PRICED_SERVICES,
  SETTINGS_FIELDS,
  SETTINGS_SECTIONS,
  storedSchemas,
} from "./schema";
import { ownerIdentity, ownerProvider } from "../../tests/fixtures/owner-settings";

/** The errors of `section`'s form for `values` (the defaults' fields with `values` over them), by field. */
function errorsFor(section: (typeof SETTINGS_SECTIONS)[number], values: Record<string, string>) {
  const parsed = formSchemas[section].safeParse({ ...formValuesOf(section, realistic), ...values });
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

/** An owner's real values: what the desk's forms accept (the shipped examples are not all valid). */
const realistic = {
  ...defaultSettings(),
  identity: ownerIdentity,
  legal: { ...defaultSettings().legal, hosting: ownerProvider, mailProvider: ownerProvider },
};

describe("the settings' shapes", () => {
  it("hold the content files' values, which are the defaults", () => {
    const defaults = defaultSettings();
    for (const section of SETTINGS_SECTIONS)
      expect(storedSchemas[section].parse(defaults[section])).toEqual(defaults[section]);
    // The prices are the service cards' (whatever a deployment wrote there), the hours hours.ts's.
    expect(defaults.prices).toEqual(
      Object.fromEntries(PRICED_SERVICES.map((id) => [id, services.find((service) => service.id === id)!.price.chf])),
    );
    expect(defaults.hours).toEqual(defaultHours);
  });

  it("give back, from each form's values as shown, the stored section unchanged", () => {
    for (const section of SETTINGS_SECTIONS) {
      const values = formValuesOf(section, realistic);
      expect(Object.keys(values).sort(), section).toEqual(SETTINGS_FIELDS[section].map((field) => field.name).sort());
      expect(formSchemas[section].parse(values), section).toEqual(realistic[section]);
    }
  });
});

describe("a field of Réglages", () => {
  it("reads a Swiss telephone however it is typed, and refuses what is not a number", () => {
    for (const typed of ["079 555 44 33", "+41 79 555 44 33", "0041795554433", "079/555.44.33"]) {
      const identity = formSchemas.identity.parse({ ...formValuesOf("identity", realistic), phone: typed });
      expect(identity.phone, typed).toBe("+41795554433");
      expect(identity.phoneDisplay, typed).toBe("+41 79 555 44 33");
    }
    for (const typed of ["021 55", "+41 00 000 00 00", "téléphone", ""])
      expect(errorsFor("identity", { phone: typed }).phone, typed).toMatch(/obligatoire|pas valable/);
  });

  it("checks the postcode, the IDE and the e-mail, and lets the IDE be empty", () => {
    expect(errorsFor("identity", { postalCode: "0000" }).postalCode).toBe(
      "Un NPA suisse a quatre chiffres, par exemple 1003.",
    );
    expect(errorsFor("identity", { uid: "CHE-000.000.000 (exemple)" }).uid).toBe(
      "Un numéro IDE s’écrit CHE-123.456.789.",
    );
    expect(errorsFor("identity", { email: "contact@" }).email).toMatch(/^Cette adresse e-mail n’est pas valable/);
    expect(formSchemas.identity.parse({ ...formValuesOf("identity", realistic), uid: "" }).uid).toBeNull();
  });

  it("reads a price in francs in the ways the Swiss write it, in 5-centime steps from CHF 1.– to CHF 1000.–", () => {
    const price = (typed: string) =>
      formSchemas.prices.parse({ ...formValuesOf("prices", realistic), "one-to-one-course": typed })[
        "one-to-one-course"
      ];
    expect(["105", "105.–", "CHF 105.–", "105,00"].map(price)).toEqual([105, 105, 105, 105]);
    expect(price("62,50")).toBe(62.5);
    expect(errorsFor("prices", { "one-to-one-course": "95 francs" })["one-to-one-course"]).toBe(
      "Écrivez un prix en francs, par exemple 55 ou 62.50.",
    );
    expect(errorsFor("prices", { "one-to-one-course": "62.53" })["one-to-one-course"]).toMatch(
      /multiple de 5 centimes/,
    );
    expect(errorsFor("prices", { "one-to-one-course": "0" })["one-to-one-course"]).toMatch(
      /entre CHF 1.– et CHF 1000.–/,
    );
    expect(errorsFor("prices", { "one-to-one-course": "1200" })["one-to-one-course"]).toMatch(
      /entre CHF 1.– et CHF 1000.–/,
    );
  });

  it("takes opening hours as both times or none, the closing after the opening", () => {
    const hours = formSchemas.hours.parse({
      ...formValuesOf("hours", realistic),
      saturdayOpens: "",
      saturdayCloses: "",
      sundayOpens: "9h30",
      sundayCloses: "12.00",
    });
    expect(hours.saturday).toBeNull();
    expect(hours.sunday).toEqual({ opens: "09:30", closes: "12:00" });
    expect(errorsFor("hours", { weekdaysCloses: "" }).weekdaysCloses).toMatch(/^Indiquez l’ouverture et la fermeture/);
    expect(errorsFor("hours", { weekdaysCloses: "08:00" }).weekdaysCloses).toBe(
      "La fermeture doit venir après l’ouverture.",
    );
    expect(errorsFor("hours", { weekdaysOpens: "25:00" }).weekdaysOpens).toBe("Écrivez une heure, par exemple 9:00.");
  });

  it("splits towns at commas, and asks for one to eight of them", () => {
    const zones = formSchemas.zones.parse({
      ...formValuesOf("zones", realistic),
      VDTowns: "Lausanne,  Vevey ;Nyon\nMorges,",
    });
    expect(zones.VD.towns).toEqual(["Lausanne", "Vevey", "Nyon", "Morges"]);
    expect(errorsFor("zones", { GETowns: " , " }).GETowns).toMatch(/au moins une localité/);
    expect(errorsFor("zones", { GETowns: "a,b,c,d,e,f,g,h,i" }).GETowns).toMatch(/huit au maximum/);
  });

  it("asks the providers' websites in https, the periods in whole numbers, the date as a date", () => {
    expect(errorsFor("legal", { hostingWebsite: "http://hebergeur.ch" }).hostingWebsite).toMatch(/https:\/\//);
    expect(errorsFor("legal", { hostingWebsite: "infomaniak" }).hostingWebsite).toMatch(/https:\/\//);
    expect(errorsFor("legal", { retentionMonths: "2.5" }).retentionMonths).toBe(
      "Écrivez un nombre entier entre 1 et 120.",
    );
    expect(errorsFor("legal", { retentionMonths: "0" }).retentionMonths).toBe(
      "Écrivez un nombre entier entre 1 et 120.",
    );
    expect(errorsFor("legal", { lastUpdated: "2026-02-31x" }).lastUpdated).toMatch(/date valable/);
  });
});
