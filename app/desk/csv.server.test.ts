/**
 * The desk's CSV files against spreadsheet injection (issue 24, item 3): a
 * cell with a line break stays one cell, and no line of it starts as a
 * formula.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { spreadsheetCsv, type CsvColumn } from "./csv.server";

const columns: CsvColumn<{ message: string }>[] = [
  { label: "Message", value: (row) => row.message },
  { label: "Fin", value: () => "fin" },
];

/** The rows a spreadsheet reads from the file (`;`, quotes, BOM dropped). */
function cells(csv: string): string[][] {
  return parse(csv.replace(/^\uFEFF/, ""), { delimiter: ";", relax_column_count: true });
}

describe("spreadsheetCsv", () => {
  it("quotes a cell holding a bare line feed, so that its next line is not a row of its own", () => {
    const csv = spreadsheetCsv(columns, [{ message: 'Bonjour\n=HYPERLINK("https://evil.example","clic")' }]);
    const rows = cells(csv);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual(['Bonjour\n\'=HYPERLINK("https://evil.example","clic")', "fin"]);
    expect(csv).toContain("\"Bonjour\n'=HYPERLINK(");
  });

  it("escapes a formula on every line of a cell, whatever the line break", () => {
    for (const lineBreak of ["\n", "\r\n", "\r"]) {
      const rows = cells(
        spreadsheetCsv(columns, [{ message: `=1+1${lineBreak}+2${lineBreak}-3${lineBreak}@SUM(A1)` }]),
      );
      expect(rows).toHaveLength(2);
      const lines = rows[1]![0]!.split(/\r\n|\r|\n/);
      expect(lines).toEqual(["'=1+1", "'+2", "'-3", "'@SUM(A1)"]);
    }
  });

  it("leaves ordinary text as it is", () => {
    const rows = cells(spreadsheetCsv(columns, [{ message: "Rappeler mardi; merci\nà bientôt" }]));
    expect(rows[1]).toEqual(["Rappeler mardi; merci\nà bientôt", "fin"]);
  });
});
