import { stringify } from 'csv-stringify/sync';
import { parse } from 'csv-parse/sync';

/** UTF-8 byte-order mark: Excel needs it to open Chinese CSV correctly. */
export const BOM = '\uFEFF';

/** CSV text (with BOM) of rows; arrays and objects are written as JSON inside their cell. */
export function toCsv(columns: string[], rows: Array<Record<string, unknown>>): string {
  const records = rows.map((r) => columns.map((c) => cell(r[c])));
  return BOM + stringify([columns, ...records]);
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** Parses CSV text (BOM tolerated) into header-keyed records. Throws with the line number on malformed input. */
export function parseCsv(text: string): Array<Record<string, string>> {
  return parse(text, { bom: true, columns: true, skip_empty_lines: true, trim: false, relax_column_count: false }) as Array<Record<string, string>>;
}
