/**
 * How a benchmark hands over its figures: the Markdown report printed on
 * standard output and written to `file` (under `reports/`, git-ignored).
 */
import fs from "node:fs";
import path from "node:path";

export function publishReport(file: string, markdown: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, markdown);
  console.log(markdown);
  console.error(`Written to ${file}`);
}
