import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { openDatabase } from '../src/db/index.js';
import { TRUST_ALL_WARNING, UNTRUSTED_FORWARD_WARNING } from '../src/http/proxy-warnings.js';
import { testConfig } from './helpers.js';

/** An app whose warnings are captured, with TRUST_PROXY as given. */
async function appWith(trustProxy: string) {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      cb();
    },
  });
  const db = openDatabase('sqlite::memory:');
  const app = await buildApp({
    config: testConfig({ TRUST_PROXY: trustProxy }),
    db,
    logger: { level: 'warn', stream },
  });
  await app.ready();
  const warnings = (text: string) => lines.filter((l) => l.level === 40 && l.msg === text).length;
  const close = async () => {
    await app.close();
    await db.close();
  };
  return { app, warnings, close };
}

describe('TRUST_PROXY warnings', () => {
  it('TRUST_PROXY=true is warned about at start-up: the client writes the address it would trust', async () => {
    const t = await appWith('true');
    expect(t.warnings(TRUST_ALL_WARNING)).toBe(1);
    expect(TRUST_ALL_WARNING).toMatch(/^TRUST_PROXY=true 会信任/);
    await t.close();
  });

  it('a hop count is not warned about, proxied requests or not', async () => {
    const t = await appWith('1');
    await t.app.inject({ url: '/healthz', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(t.warnings(TRUST_ALL_WARNING) + t.warnings(UNTRUSTED_FORWARD_WARNING)).toBe(0);
    await t.close();
  });

  it('requests carrying X-Forwarded-For without TRUST_PROXY are warned about once', async () => {
    const t = await appWith('false');
    await t.app.inject({ url: '/healthz' });
    expect(t.warnings(UNTRUSTED_FORWARD_WARNING)).toBe(0);
    for (let i = 0; i < 3; i++) await t.app.inject({ url: '/healthz', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(t.warnings(UNTRUSTED_FORWARD_WARNING)).toBe(1);
    await t.close();
  });
});
