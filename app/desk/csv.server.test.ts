/**
 * The desk's CSV files against spreadsheet injection (issue 24, item 3): a
 * cell with a line break stays one cell, and no line of it starts as a
 * formula.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { keysetBatches, spreadsheetCsv, spreadsheetCsvStream, type CsvColumn } from "./csv.server";

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

describe("spreadsheetCsvStream", () => {
  /** The bytes a download of `batches` gives, read as text with the BOM kept (`Response.text()` drops it). */
  const streamed = async <T>(columns: readonly CsvColumn<T>[], batches: AsyncIterable<readonly T[]>) =>
    new TextDecoder("utf-8", { ignoreBOM: true }).decode(
      await new Response(spreadsheetCsvStream(columns, batches)).arrayBuffer(),
    );

  const note: CsvColumn<{ id: number; note: string }>[] = [
    { label: "N°", value: (row) => String(row.id) },
    { label: "Note « client »", value: (row) => row.note },
  ];
  /** Notes with quotes, semicolons, line breaks and formulas: everything the escaping does. */
  const rows = Array.from({ length: 1203 }, (_, index) => ({
    id: index + 1,
    note: [`Dit « oui »; "rappeler"`, "Mardi\n=1+1", "ligne\r\n@SUM(A1)", "-3", "simple"][index % 5]!,
  }));

  it("gives the same bytes as the one-string file, over several batches (BOM, header, escaping)", async () => {
    const read = async (after: { id: number } | undefined, size: number) =>
      rows.filter((row) => row.id > (after?.id ?? 0)).slice(0, size);
    const text = await streamed(note, keysetBatches(read));
    expect(text).toBe(spreadsheetCsv(note, rows));
    // Complete: 1203 rows over three batches of 500, the last one whole.
    const lines = cells(text);
    expect(lines).toHaveLength(1204);
    expect(lines.at(-1)).toEqual(["1203", "ligne\r\n'@SUM(A1)"]);
    expect(text.startsWith("\uFEFFN°;")).toBe(true);
  });

  it("gives the header alone for an empty list, as the one-string file does", async () => {
    expect(
      await streamed(
        note,
        keysetBatches(async () => []),
      ),
    ).toBe(spreadsheetCsv(note, []));
  });

  it("reads batches until a short one, each after the last row of the one before", async () => {
    const asked: (number | undefined)[] = [];
    const read = async (after: number | undefined, size: number) => {
      asked.push(after);
      const start = after ?? 0;
      return Array.from({ length: Math.max(0, Math.min(size, 1000 - start)) }, (_, index) => start + index + 1);
    };
    const batches: number[][] = [];
    for await (const batch of keysetBatches(read)) batches.push(batch);
    expect(batches.map((batch) => batch.length)).toEqual([500, 500]);
    expect(asked).toEqual([undefined, 500, 1000]);
  });
});
