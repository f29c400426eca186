/**
 * Legal pages' content: anchors are unique (the table of contents works),
 * the owner's values are sensible and reach the texts.
 */
import { describe, expect, it } from "vitest";
import { formatDate } from "~/utils/format";
import { identity } from "./identity";
import { legalPagesOf, legalSettings, type LegalPage } from "./legal";

const { legalNotice, privacyNotice } = legalPagesOf(identity.name, legalSettings);

const allText = (page: LegalPage) => JSON.stringify(page.sections);

describe("legal pages", () => {
  it("give every section its own anchor, and both show the operator's card", () => {
    for (const page of [legalNotice, privacyNotice]) {
      const ids = page.sections.map((section) => section.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^[a-z][a-z-]*$/);
      expect(page.sections.some((section) => section.blocks.some((block) => block.kind === "operator"))).toBe(true);
    }
  });
  it("have a valid date of last update and a positive retention period that the privacy notice states", () => {
    expect(() => formatDate(legalSettings.lastUpdated)).not.toThrow();
    expect(Number.isInteger(legalSettings.retentionMonths) && legalSettings.retentionMonths > 0).toBe(true);
    expect(allText(privacyNotice)).toContain(`${legalSettings.retentionMonths} mois après notre dernier échange`);
    expect(allText(privacyNotice)).toContain(`effacé après ${legalSettings.logRetentionDays} jours`);
  });
  it("say what the site deletes by itself, and how the rate-limit counters are kept", () => {
    const text = allText(privacyNotice);
    expect(text).toContain(
      `efface les demandes dont le dernier échange date de plus de ${legalSettings.retentionMonths} mois`,
    );
    expect(text).toContain(`efface automatiquement ${legalSettings.sentNotificationDays} jours après l’envoi`);
    expect(text).not.toContain("en mémoire");
    expect(text).toContain("empreinte calculée à partir d’elle");
    expect(text).toMatch(/remettre toutes les données que le site a enregistrées sur vous, ou de les effacer toutes/);
  });
  it("name the hosting provider on both pages and the mail provider in the privacy notice", () => {
    expect(allText(legalNotice)).toContain(legalSettings.hosting.name);
    expect(allText(privacyNotice)).toContain(legalSettings.hosting.name);
    expect(allText(privacyNotice)).toContain(legalSettings.mailProvider.name);
  });
});
