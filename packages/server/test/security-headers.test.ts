import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestInstance, type TestInstance } from './helpers.js';

describe('security headers', () => {
  let t: TestInstance;
  beforeAll(async () => {
    t = await getTestInstance('sqlite');
  });
  afterAll(() => t.close());

  it.each(['/healthz', '/api/bmi?height=170&weight=60', '/api/auth/me', '/api/nope'])(
    'are on every response (%s)',
    async (url) => {
      const res = await t.app.inject(url);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toContain('max-age=');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
      // Images of the public API may be embedded on other sites.
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    },
  );
});
