/**
 * The decision records of `docs/decisions/` follow the template
 * (`000-template.md`): a title "# NNN: ...", a Status line (proposed,
 * accepted, or superseded by a record that exists) before the first section,
 * and the sections Context, Decision and Consequences in that order; the
 * folder's README lists every record with its state.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const folder = fileURLToPath(new URL("../../docs/decisions/", import.meta.url));
const records = fs
  .readdirSync(folder)
  .filter((name) => /^\d{3}-.+\.md$/.test(name) && !name.startsWith("000-"))
  .sort();
const numbers = new Set(records.map((name) => name.slice(0, 3)));

/** A record's state: "proposed", "accepted" or "superseded by NNN"; null when its Status line is missing or malformed. */
function stateOf(text: string): string | null {
  const beforeSections = text.split(/^## /m)[0]!;
  const status = /^Status: (proposed|accepted|superseded by \d{3})\b/m.exec(beforeSections);
  return status ? status[1]! : null;
}

describe("decision records", () => {
  it("exist, numbered, beside their template", () => {
    expect(records.length).toBeGreaterThan(20);
    expect(fs.existsSync(path.join(folder, "000-template.md"))).toBe(true);
  });

  for (const name of records) {
    it(`${name} has its title, a Status line and the template's three sections`, () => {
      const text = fs.readFileSync(path.join(folder, name), "utf8");
      expect(text.split("\n")[0]).toMatch(new RegExp(`^# ${name.slice(0, 3)}: \\S`));
      const state = stateOf(text);
      expect(state, "Status: proposed | accepted | superseded by NNN").not.toBeNull();
      const superseder = /^superseded by (\d{3})$/.exec(state!)?.[1];
      if (superseder) expect(numbers.has(superseder), `record ${superseder} exists`).toBe(true);
      const sections = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]!.trim());
      const order = ["Context", "Decision", "Consequences"].map((section) => sections.indexOf(section));
      expect(
        order.every((position) => position >= 0),
        `sections: ${sections.join(", ")}`,
      ).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
    });
  }

  it("are listed in the folder's README, each with its state", () => {
    const index = fs.readFileSync(path.join(folder, "README.md"), "utf8");
    for (const name of records) {
      const state = stateOf(fs.readFileSync(path.join(folder, name), "utf8"));
      const row = index.split("\n").find((line) => line.includes(`(${name})`));
      expect(row, `${name} in the README`).toBeDefined();
      const cells = row!.split("|").map((cell) => cell.trim());
      expect(cells.at(-2), `${name}'s state in the README`).toBe(state);
    }
  });
});
