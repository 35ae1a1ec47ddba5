import { parse } from 'csv-parse/sync';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, useTestApp } from './helpers.js';
import { adminCall, createUser, type Call } from './admin-fixtures.js';

/** Cells of a CSV export (BOM stripped), as a spreadsheet would read them with ',' as separator. */
const cellsOf = (payload: Buffer) =>
  (parse(payload.toString('utf8').replace(/^\uFEFF/, ''), { relax_column_count: true }) as string[][]).flat();

/** What a spreadsheet would run as a formula: a cell, or a `;`-separated part of one, or a line, starting (after spaces) with = + - @. */
const formulaParts = (cells: string[]) =>
  cells.flatMap((c) => c.split(/[;\r\n]/)).filter((part) => /^\s*[=+\-@]/.test(part));

const RISKY = [' =1+2', '\t=HYPERLINK("http://evil")', 'note;=cmd|" /C calc"!A0', 'first line\n@SUM(A1)'];
const JOKES = RISKY.map((text) => text.trim());

describeEachDb('CSV exports neutralise formula cells (OWASP list)', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  beforeAll(async () => {
    admin = await adminCall(t.app);
    for (const [i, text] of RISKY.entries()) {
      await createUser(admin, `csv.user${i}`, [], { nickname: text.slice(0, 60) });
      expect(
        (await admin('POST', '/api/roles', { code: `csv_role${i}`, name: `角色${i}`, description: text })).statusCode,
      ).toBe(201);
      // The content lint refuses leading or trailing white space in library texts: the jokes get the trimmed text
      // (a formula at the very start), the white-space variants go through users and roles.
      expect((await admin('POST', '/api/admin/content/jokes', { content: JOKES[i] })).statusCode).toBe(201);
    }
  });

  it.each([
    '/api/users/export',
    '/api/roles/export',
    '/api/audit-logs/export',
    '/api/admin/content/jokes/export?format=csv',
  ])('%s holds no live formula', async (url) => {
    const res = await admin('GET', url);
    expect(res.statusCode).toBe(200);
    const cells = cellsOf(res.rawPayload);
    expect(cells.some((c) => c.includes('=1+2'))).toBe(true);
    expect(formulaParts(cells)).toEqual([]);
  });

  it('a content export imports back unchanged (the added quotes are removed again)', async () => {
    const exported = await admin(
      'GET',
      `/api/admin/content/jokes/export?format=csv&keyword=${encodeURIComponent('=1+2')}`,
    );
    const csv = exported.rawPayload.toString('utf8').replace(/^\uFEFF/, '');
    const rows = parse(csv, { columns: true }) as Array<{ id: string; content: string }>;
    expect(rows.map((r) => r.content)).toEqual([`'${JOKES[0]}`]);
    // Re-import into a fresh copy: delete the item first, then import the exported file.
    expect((await admin('DELETE', `/api/admin/content/jokes/${rows[0].id}`)).statusCode).toBe(204);
    const imported = await admin('POST', '/api/admin/content/jokes/import', {
      format: 'csv',
      content: exported.rawPayload.toString('utf8'),
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const list = await admin('GET', `/api/admin/content/jokes?keyword=${encodeURIComponent('=1+2')}`);
    expect(list.json().data.items.map((i: { content: string }) => i.content)).toEqual([JOKES[0]]);
  });
});
