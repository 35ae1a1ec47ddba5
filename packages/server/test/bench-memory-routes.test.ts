/**
 * `npm run bench:memory` must exercise every public route: the list it derives from the OpenAPI document
 * (bench/memory-requests.ts) is compared with the route table (every GET route registered with config.area
 * 'lookup'), and each derived request carries every required parameter and the largest allowed count and size.
 */
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type OpenApiDocument,
  type Operation,
  publicGetOperations,
  requestUrl,
} from '../../../bench/memory-requests.js';
import { buildApp } from '../src/app.js';
import { freshDb, testConfig } from './helpers.js';

describe('the memory benchmark’s requests', () => {
  const registered: string[] = [];
  let ops: Operation[];
  let close: () => Promise<void>;
  beforeAll(async () => {
    const db = await freshDb('sqlite');
    const onRoute = (r: RouteOptions) => {
      if (r.config?.area === 'lookup' && ([] as string[]).concat(r.method).includes('GET')) registered.push(r.url);
    };
    const app = await buildApp({ config: testConfig(), db, logger: false, onRoute });
    ops = publicGetOperations((await app.inject('/openapi.json')).json() as OpenApiDocument);
    close = async () => {
      await app.close();
      await db.close();
    };
  });
  afterAll(() => close());

  it('cover every public GET route of the route table, and nothing that needs a sign-in', () => {
    expect(registered.length).toBeGreaterThan(30);
    expect(ops.map((o) => o.path).sort()).toEqual([...new Set(registered)].sort());
  });

  it('send every required parameter, and counts and sizes at their maximum', () => {
    for (const op of ops) {
      const q = new URL(requestUrl(op, 3), 'http://x').searchParams;
      for (const p of op.params) {
        if (p.required) expect(q.has(p.name), `${op.path} ${p.name}`).toBe(true);
        if (['count', 'size', 'width', 'height', 'length', 'limit'].includes(p.name))
          expect(Number(q.get(p.name)), `${op.path} ${p.name}`).toBe(p.schema?.maximum);
      }
    }
  });

  it('put the known large holders in phases of their own', () => {
    const phase = (path: string) => ops.find((o) => o.path === path)?.phase;
    expect(phase('/api/ip-region')).toBe('ip-region');
    expect(phase('/api/password-strength')).toBe('password');
    expect(phase('/api/random-image/image')).toBe('images');
    expect(phase('/api/qrcode/image')).toBe('images');
    expect(phase('/api/almanac')).toBe('data');
  });
});
