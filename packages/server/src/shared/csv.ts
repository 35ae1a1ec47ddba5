import type { FastifyReply } from 'fastify';
import { stringify } from 'csv-stringify/sync';
import { neutraliseFormula } from './csv-formula.js';

/** A CSV column: header text and how to read the cell from a row. */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

/**
 * Sends rows as a CSV attachment: UTF-8 with a byte-order mark so Excel shows Chinese text correctly. Text cells
 * that a spreadsheet would run as formulas get a ' (CSV injection, see csv-formula.ts); every export goes through here.
 * `truncated` adds `X-Export-Truncated: true` when the result was cut at EXPORT_LIMIT rows.
 */
export function sendCsv<T>(
  reply: FastifyReply,
  filename: string,
  columns: CsvColumn<T>[],
  rows: T[],
  truncated = false,
) {
  const cell = (v: string | number | null | undefined) => (typeof v === 'string' ? neutraliseFormula(v) : (v ?? ''));
  const body = stringify([columns.map((c) => c.header), ...rows.map((r) => columns.map((c) => cell(c.value(r))))], {
    bom: true,
    record_delimiter: 'windows',
  });
  if (truncated) reply.header('x-export-truncated', 'true');
  return reply
    .header('content-disposition', `attachment; filename="${filename}"`)
    .type('text/csv; charset=utf-8')
    .send(Buffer.from(body, 'utf8'));
}
