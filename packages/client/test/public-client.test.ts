/**
 * The public client against a real server (buildApp on in-memory SQLite, listening on 127.0.0.1): typed data,
 * the envelope's code and msg on failure, the rate-limit state and Retry-After.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall } from '../../server/test/admin-fixtures.js';
import { getTestInstance, type TestInstance } from '../../server/test/helpers.js';
import { PublicApiError, createPublicClient } from '../src/index.js';

async function listen(env: Record<string, string> = {}): Promise<{ t: TestInstance; baseUrl: string }> {
  const t = await getTestInstance('sqlite', env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, baseUrl: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` };
}

describe('public client, anonymous', () => {
  let t: TestInstance;
  let baseUrl: string;
  beforeAll(async () => ({ t, baseUrl } = await listen({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '1m' })));
  afterAll(() => t?.close());

  it('returns the typed data of the envelope and the rate-limit state of the answer', async () => {
    const tj = createPublicClient({ baseUrl: `${baseUrl}/` });
    const answer = await tj.call('/api/almanac', { date: '2026-11-21' });
    expect(answer.data).toHaveLength(12);
    expect(answer.data[0]!.hour).toBe('子时');
    expect(answer.timestamp).toBeGreaterThan(0);
    expect(answer.rateLimit).toMatchObject({ limit: 3, remaining: 2 });
    expect(tj.rateLimit).toEqual(answer.rateLimit);
  });

  it('throws PublicApiError with the envelope’s code and msg naming the parameter', async () => {
    const tj = createPublicClient({ baseUrl });
    const e = await tj.get('/api/almanac', { date: '2026-13-40' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PublicApiError);
    expect(e).toMatchObject({ status: 500, code: 500 });
    expect((e as PublicApiError).msg).toContain('date');
  });

  it('on 429 says how long to wait (Retry-After) and the spent limit', async () => {
    const tj = createPublicClient({ baseUrl });
    await tj.get('/api/random-color', {}).catch(() => undefined);
    const e = (await tj.get('/api/random-color', {}).catch((x: unknown) => x)) as PublicApiError;
    expect(e).toBeInstanceOf(PublicApiError);
    expect(e).toMatchObject({ status: 429, code: 429 });
    expect(e.retryAfter).toBeGreaterThan(0);
    expect(e.rateLimit).toMatchObject({ limit: 3, remaining: 0 });
  });
});

describe('public client, images and keys', () => {
  let t: TestInstance;
  let baseUrl: string;
  beforeAll(async () => ({ t, baseUrl } = await listen()));
  afterAll(() => t?.close());

  it('fetches an image endpoint’s bytes', async () => {
    const png = await createPublicClient({ baseUrl }).image('/api/qrcode/image', { text: 'tianji', format: 'png' });
    expect(png.type).toBe('image/png');
    expect(new Uint8Array(await png.arrayBuffer()).slice(1, 4)).toEqual(new Uint8Array([0x50, 0x4e, 0x47]));
  });

  it('sends the key in X-API-Key, never in the URL', async () => {
    const seen: Array<{ url: string; key: string | null }> = [];
    const tj = createPublicClient({
      baseUrl,
      apiKey: 'tj_example',
      fetch: async (input, init) => {
        seen.push({ url: String(input), key: new Headers(init?.headers).get('x-api-key') });
        return fetch(input, init);
      },
    });
    await tj.get('/api/random-color', {}).catch(() => undefined);
    expect(seen).toEqual([{ url: `${baseUrl}/api/random-color`, key: 'tj_example' }]);
  });
});

describe('public client with an API key', () => {
  let t: TestInstance;
  let baseUrl: string;
  beforeAll(async () => ({ t, baseUrl } = await listen()));
  afterAll(() => t?.close());

  async function createKey(body: Record<string, unknown>): Promise<string> {
    const res = await (await adminCall(t.app))('POST', '/api/admin/api-keys', body);
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { data: { secret: string } }).data.secret;
  }

  it('a key’s calls are answered with its own limit; past it, 429 with Retry-After', async () => {
    const tj = createPublicClient({ baseUrl, apiKey: await createKey({ name: 'sdk', perMinute: 2 }) });
    const first = await tj.call('/api/solar-term', { year: 2026 });
    expect(first.data.length).toBeGreaterThan(20);
    expect(first.rateLimit).toMatchObject({ limit: 2, remaining: 1 });
    await tj.get('/api/solar-term', { year: 2026 });
    const e = (await tj.get('/api/solar-term', { year: 2026 }).catch((x: unknown) => x)) as PublicApiError;
    expect(e).toBeInstanceOf(PublicApiError);
    expect(e).toMatchObject({ status: 429, code: 429 });
    expect(e.retryAfter).toBeGreaterThan(0);
    expect(e.rateLimit).toMatchObject({ limit: 2, remaining: 0 });
  });

  it('a wrong key is refused with the envelope’s message, never answered as anonymous', async () => {
    const tj = createPublicClient({ baseUrl, apiKey: `tj_${'x'.repeat(43)}` });
    const e = (await tj.get('/api/random-color', {}).catch((x: unknown) => x)) as PublicApiError;
    expect(e).toBeInstanceOf(PublicApiError);
    expect(e.status).toBe(401);
    expect(e.msg).toContain('接口密钥无效或已失效');
  });
});
