import { describe, expect, it } from 'vitest';
import { newSecret } from '../src/public/keys/secret.js';
import { adminCall } from './admin-fixtures.js';
import { useTestApp } from './helpers.js';

const ENDPOINT = '/api/mood-quote';

describe('unknown API keys count against the caller’s address', () => {
  // A per-IP limit of 20 a minute: a flood's 200 requests cross it within one window.
  const t = useTestApp('sqlite', { RATE_LIMIT_MAX: '20', RATE_LIMIT_WINDOW: '60' });
  const from = (remoteAddress: string, secret?: string) =>
    t.app.inject({ url: ENDPOINT, remoteAddress, headers: secret ? { 'x-api-key': secret } : {} });

  it('random well-formed keys from one address get 429 after the per-IP limit, and then cost no lookup', async () => {
    const admin = await adminCall(t.app);
    const { secret } = (await admin('POST', '/api/admin/api-keys', { name: 'partner' })).json().data;
    // A caller with a real key on the same address, seen before the flood.
    expect((await from('192.0.2.40', secret)).statusCode).toBe(200);

    const before = t.app.apiKeys.lookups;
    const codes: number[] = [];
    let limited: Awaited<ReturnType<typeof from>> | undefined;
    for (let i = 0; i < 200; i++) {
      const res = await from('192.0.2.40', newSecret().secret);
      codes.push(res.statusCode);
      if (res.statusCode === 429) limited = res;
    }
    expect(codes.filter((c) => c === 401)).toHaveLength(20);
    expect(codes.filter((c) => c === 429)).toHaveLength(180);
    expect(limited?.json().msg).toContain('每个 IP');
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    // One lookup per request up to the limit and the one that crossed it; none after.
    expect(t.app.apiKeys.lookups - before).toBe(21);

    // The address's anonymous callers are limited with it; its keyed caller and other addresses are not.
    expect((await from('192.0.2.40')).statusCode).toBe(429);
    expect((await from('192.0.2.40', secret)).statusCode).toBe(200);
    expect((await from('192.0.2.41', newSecret().secret)).statusCode).toBe(401);
    expect((await from('192.0.2.41')).statusCode).toBe(200);
  });

  it('the same unknown key again is answered from the cache of misses, without a lookup', async () => {
    const { secret } = newSecret();
    const before = t.app.apiKeys.lookups;
    for (let i = 0; i < 10; i++) expect((await from('192.0.2.50', secret)).statusCode).toBe(401);
    expect(t.app.apiKeys.lookups - before).toBe(1);
  });
});
