import type { FastifyReply } from 'fastify';
import { stringify } from 'csv-stringify/sync';
import { neutraliseFormula } from './csv-formula.js';
import { contentDisposition, type ExportName } from './export-format.js';

/** A CSV column: its header (Chinese, as the list page names it) and how to read the cell from a row (export-format.ts). */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

/**
 * Sends rows as a CSV attachment: UTF-8 with a byte-order mark so Excel shows Chinese text correctly. Text cells
 * that a spreadsheet would run as formulas get a ' (CSV injection, see csv-formula.ts); every export goes through here.
 * The file is named for the list and the day (`登录日志-2026-12-01.csv`, export-format.ts). `truncated` adds
 * `X-Export-Truncated: true` when the result was cut at EXPORT_LIMIT rows.
 */
export function sendCsv<T>(
  reply: FastifyReply,
  name: ExportName,
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
    .header('content-disposition', contentDisposition(name, 'csv'))
    .type('text/csv; charset=utf-8')
    .send(Buffer.from(body, 'utf8'));
}
