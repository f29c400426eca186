/**
 * The requests as a CSV file that Excel and LibreOffice set to Swiss French
 * or Swiss German open as they are: UTF-8 with a byte order mark (accents
 * read right), `;` between fields, CRLF line ends, times as
 * "24.11.2026 14:05" in Swiss time, French headers (`REQUEST_COLUMNS`).
 * A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets
 * a leading apostrophe (csv-stringify's `escape_formulas`, OWASP "CSV
 * injection"), so that a name typed as `=HYPERLINK(...)` stays text.
 */
import { stringify } from "csv-stringify/sync";
import { formatSpreadsheetDateTime } from "~/utils/format";
import { REQUEST_COLUMNS, type RequestRow } from "./requests.server";

/** The CSV text of `rows` (header line first, BOM included), in their order. */
export function requestsCsv(rows: readonly RequestRow[]): string {
  return stringify(
    rows.map((row) => REQUEST_COLUMNS.map((column) => column.value(row, formatSpreadsheetDateTime))),
    {
      bom: true,
      delimiter: ";",
      record_delimiter: "windows",
      escape_formulas: true,
      header: true,
      columns: REQUEST_COLUMNS.map((column) => column.label),
    },
  );
}
