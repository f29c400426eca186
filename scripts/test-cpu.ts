/**
 * Prints the table of a test run's cost per file, sorted by CPU: the lines
 * `TEST_CPU_LOG` gathered (tests/support/file-cpu.ts for Vitest).
 * Usage: `TEST_CPU_LOG=/tmp/cpu.log npx vitest run && npx tsx scripts/test-cpu.ts /tmp/cpu.log`;
 * with `--write`, also keeps each file's wall seconds in tests/file-costs.json, the order Vitest
 * runs the files in (tests/support/sequencer.ts).
 * @throws when the file is missing.
 */
import fs from "node:fs";
import { FILE_COSTS } from "../tests/support/sequencer";

const file = process.argv[2] ?? process.env.TEST_CPU_LOG;
if (!file) throw new Error("Name the log: npx tsx scripts/test-cpu.ts <file>");
const rows = fs
  .readFileSync(file, "utf8")
  .trim()
  .split("\n")
  .map((line) => {
    const [name = "", cpu = "0", wall = "0"] = line.split("\t");
    return { name, cpu: Number(cpu), wall: Number(wall) };
  })
  .sort((a, b) => b.cpu - a.cpu);
const total = rows.reduce((sum, row) => ({ cpu: sum.cpu + row.cpu, wall: sum.wall + row.wall }), { cpu: 0, wall: 0 });
console.log("| File | CPU s | Wall s |\n|---|---:|---:|");
for (const row of rows) console.log(`| ${row.name} | ${row.cpu.toFixed(1)} | ${row.wall.toFixed(1)} |`);
console.log(`| ${rows.length} files | ${total.cpu.toFixed(1)} | ${total.wall.toFixed(1)} |`);
if (process.argv.includes("--write")) {
  const costs = Object.fromEntries(
    [...rows].sort((a, b) => a.name.localeCompare(b.name)).map((row) => [row.name, Math.round(row.wall * 10) / 10]),
  );
  fs.writeFileSync(FILE_COSTS, `${JSON.stringify(costs, null, 2)}\n`);
  console.log(`Kept ${rows.length} files' wall seconds in ${FILE_COSTS}.`);
}
