/**
 * The desk's lists as CSV files that Excel and LibreOffice set to Swiss
 * French or Swiss German open as they are: UTF-8 with a byte order mark
 * (accents read right), `;` between fields, CRLF line ends, times as
 * "24.11.2026 14:05" in Swiss time (the columns' `value` functions get
 * `formatSpreadsheetDateTime`), French headers. A cell starting with `=`,
 * `+`, `-`, `@`, a tab or a carriage return gets a leading apostrophe
 * (csv-stringify's `escape_formulas`, OWASP "CSV injection"), so that a name
 * typed as `=HYPERLINK(...)` stays text; so does every line of a cell after
 * a line break (`escapeFormulaLines`), and a cell holding a line break is
 * always quoted (`quoted_match`: csv-stringify quotes only the record
 * delimiter, CRLF, so a bare LF left the cell open and LibreOffice Calc read
 * its next line as a new row, a formula included: issue 24).
 *
 * - `spreadsheetCsv(columns, rows)` → the file's text;
 * - `csvDownload(text, name)` → the answer that downloads it as
 *   `{name}-YYYY-MM-DD.csv` (the day in Swiss time), never cached.
 */
import { stringify } from "csv-stringify/sync";
import { formatSpreadsheetDateTime, isoDateInZurich } from "~/utils/format";

/** One column: its French header, and a row's cell (times written with `formatTime`). */
export interface CsvColumn<T> {
  label: string;
  value(row: T, formatTime: (moment: string) => string): string;
}

/**
 * `text` with an apostrophe before every line, after the first, that starts
 * as a formula would (`=`, `+`, `-`, `@`, a tab); the first line is
 * csv-stringify's (`escape_formulas`).
 */
export function escapeFormulaLines(text: string): string {
  return text.replace(/(\r\n|\r|\n)(?=[=+\-@\t])/g, "$1'");
}

/** The CSV text of `rows` (header line first, BOM included), in their order. */
export function spreadsheetCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  return stringify(
    rows.map((row) => columns.map((column) => escapeFormulaLines(column.value(row, formatSpreadsheetDateTime)))),
    {
      bom: true,
      delimiter: ";",
      record_delimiter: "windows",
      quoted_match: /[\r\n]/,
      escape_formulas: true,
      header: true,
      columns: columns.map((column) => column.label),
    },
  );
}

/** The answer that downloads `csv` as `{name}-YYYY-MM-DD.csv`. */
export function csvDownload(csv: string, name: string, now = new Date()): Response {
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}-${isoDateInZurich(now)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
