/**
 * Vitest's order of test files: the longest first, by the wall seconds
 * measured once and kept in tests/file-costs.json (`npx tsx
 * scripts/test-cpu.ts <log> --write` after a `TEST_CPU_LOG` run), so that a
 * fresh clone, which has no Vitest cache, packs its three workers as a
 * checkout does: a long file started last would run alone at the end while
 * a core idles. Files not in the list go first (new, cost unknown), then
 * the listed ones by cost, whatever their project (a long unit file must
 * not wait for every integration file); only `sequence.groupOrder` comes
 * before.
 */
import fs from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Where the measured costs are kept: `{ "tests/integration/x.test.ts": 12.3, … }` (wall seconds). */
export const FILE_COSTS = path.resolve("tests", "file-costs.json");

export default class CostSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const costs: Record<string, number> = fs.existsSync(FILE_COSTS)
      ? JSON.parse(fs.readFileSync(FILE_COSTS, "utf8"))
      : {};
    const cost = (file: TestSpecification) =>
      costs[path.relative(path.resolve("."), file.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort(
      (a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || cost(b) - cost(a),
    );
  }
}
