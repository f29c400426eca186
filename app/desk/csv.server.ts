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
 * - `spreadsheetCsvStream(columns, batches)` → the same bytes as a stream,
 *   a batch of rows at a time (`keysetBatches` reads them 500 by 500), so a
 *   file of 20,000 rows never sits whole in memory;
 * - `csvDownload(text or stream, name)` → the answer that downloads it as
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

/** The options of every line: `;`, CRLF, line breaks quoted, formulas escaped. */
const LINE_OPTIONS = {
  delimiter: ";",
  record_delimiter: "windows",
  quoted_match: /[\r\n]/,
  escape_formulas: true,
} as const;

/** The CSV lines of `rows`, without header or BOM: `spreadsheetCsv`'s body, a batch at a time. */
function csvLines<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  return stringify(
    rows.map((row) => columns.map((column) => escapeFormulaLines(column.value(row, formatSpreadsheetDateTime)))),
    LINE_OPTIONS,
  );
}

/** The BOM and the header line. */
function csvHead<T>(columns: readonly CsvColumn<T>[]): string {
  return `\ufeff${stringify([columns.map((column) => column.label)], LINE_OPTIONS)}`;
}

/** The CSV text of `rows` (header line first, BOM included), in their order. */
export function spreadsheetCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  return stringify(
    rows.map((row) => columns.map((column) => escapeFormulaLines(column.value(row, formatSpreadsheetDateTime)))),
    { ...LINE_OPTIONS, bom: true, header: true, columns: columns.map((column) => column.label) },
  );
}

/**
 * The CSV of every row `batches` yields, as UTF-8 bytes: the same bytes as
 * `spreadsheetCsv` of all of them, the header first, a batch written when
 * the reader asks for more (a slow download does not pile the file up in
 * memory). An error of `batches` errors the stream (the download breaks off
 * rather than ending as if complete); cancelling it stops the reading.
 */
export function spreadsheetCsvStream<T>(
  columns: readonly CsvColumn<T>[],
  batches: AsyncIterable<readonly T[]>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvHead(columns)));
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else if (next.value.length) controller.enqueue(encoder.encode(csvLines(columns, next.value)));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** Rows a query of `keysetBatches` reads. */
export const CSV_BATCH_ROWS = 500;

/**
 * Every row of a list, `size` at a time, by keyset pagination: `read(after,
 * size)` gives the `size` rows that come after row `after` in the list's
 * order (the first ones when `after` is undefined); the batches end with
 * the first one shorter than `size`. Each batch is one short query: no
 * transaction or cursor is held across the download.
 */
export async function* keysetBatches<T>(
  read: (after: T | undefined, size: number) => Promise<T[]>,
  size = CSV_BATCH_ROWS,
): AsyncGenerator<T[]> {
  let after: T | undefined;
  for (;;) {
    const rows = await read(after, size);
    if (rows.length) yield rows;
    if (rows.length < size) return;
    after = rows.at(-1);
  }
}

/** The answer that downloads `csv` (text or stream) as `{name}-YYYY-MM-DD.csv`. */
export function csvDownload(csv: string | ReadableStream<Uint8Array>, name: string, now = new Date()): Response {
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}-${isoDateInZurich(now)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
