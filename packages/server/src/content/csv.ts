import { parse } from 'csv-parse/sync';

/**
 * Parses CSV text (BOM tolerated) into header-keyed records. Throws with the line number on malformed input.
 * Exports escape cells that start with = + - @ by a leading ' (CSV injection, see admin/shared/csv.ts); that quote
 * is removed here so an export imports back unchanged.
 */
export function parseCsv(text: string): Array<Record<string, string>> {
  const records = parse(text, { bom: true, columns: true, skip_empty_lines: true, trim: false, relax_column_count: false }) as Array<Record<string, string>>;
  for (const r of records) for (const k of Object.keys(r)) if (/^'[=+\-@\t\r]/.test(r[k])) r[k] = r[k].slice(1);
  return records;
}
