/**
 * Every admin list refuses a page or page size that is not a finite number in range with a 400 naming the
 * parameter, never a 500: ajv coerces `1e309` and `Infinity` to ±Infinity and lets them through `maximum`
 * (http/finite-numbers.ts). The lists are read from the OpenAPI document: every GET with `page` and `pageSize`.
 */
import { beforeAll, expect, it } from 'vitest';
import { adminCall, type Call } from './admin-fixtures.js';
import { describeEachDb, useTestApp } from './helpers.js';

type Operation = { parameters?: Array<{ in: string; name: string }> };
const VALUES = ['1e309', 'Infinity', '-Infinity', '1e20', '-1', '0', 'abc', 'NaN'];

describeEachDb('admin lists refuse a page or page size out of range', (dialect) => {
  const t = useTestApp(dialect);
  let admin: Call;
  let lists: string[];

  beforeAll(async () => {
    admin = await adminCall(t.app);
    const doc = (await t.app.inject('/openapi.json')).json() as { paths: Record<string, { get?: Operation }> };
    lists = Object.entries(doc.paths)
      .filter(([, ops]) => {
        const query = new Set(ops.get?.parameters?.filter((p) => p.in === 'query').map((p) => p.name));
        return query.has('page') && query.has('pageSize');
      })
      .map(([path]) => path);
  });

  it('finds every paged list in the OpenAPI document', () => {
    expect(
      lists.every((p) => !p.includes('{')),
      lists.join(', '),
    ).toBe(true);
    for (const known of ['/api/users', '/api/roles', '/api/audit-logs', '/api/sessions', '/api/login-logs'])
      expect(lists).toContain(known);
    expect(lists).toContain('/api/admin/api-keys');
    expect(lists.filter((p) => p.startsWith('/api/admin/content/')).length).toBeGreaterThan(0);
  });

  it('answers 400 naming page or pageSize, in Chinese, for every list and every bad value', async () => {
    for (const path of lists)
      for (const name of ['page', 'pageSize'])
        for (const value of VALUES) {
          const res = await admin('GET', `${path}?${name}=${encodeURIComponent(value)}`);
          const what = `${path}?${name}=${value}: ${res.body}`;
          expect(res.statusCode, what).toBe(400);
          expect(res.json(), what).toEqual({
            code: 'VALIDATION_ERROR',
            message: expect.stringMatching(new RegExp(`^参数 ${name} 无效：.*应为 ?.*1 至 \\d+.*，收到 "`)),
          });
        }
  });

  it('still answers a page in range', async () => {
    for (const path of lists) {
      const res = await admin('GET', `${path}?page=2&pageSize=100`);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
      expect(res.json().data).toMatchObject({ page: 2, pageSize: 100 });
    }
  });
});
