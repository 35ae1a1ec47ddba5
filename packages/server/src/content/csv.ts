import { parse } from 'csv-parse/sync';
import { restoreFormula } from '../shared/csv-formula.js';

/**
 * Parses CSV text (BOM tolerated) into header-keyed records. Throws with the line number on malformed input.
 * Exports neutralise formula cells with a ' (CSV injection, see admin/shared/csv-formula.ts); that is undone here
 * so an export imports back unchanged.
 */
export function parseCsv(text: string): Array<Record<string, string>> {
  const records = parse(text, {
    bom: true,
    columns: true,
    skip_empty_lines: true,
    trim: false,
    relax_column_count: false,
  }) as Array<Record<string, string>>;
  for (const r of records) for (const k of Object.keys(r)) r[k] = restoreFormula(r[k]);
  return records;
}
