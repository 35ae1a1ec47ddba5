import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../src/web/csp-hashes.js';
import { useTestApp } from './helpers.js';

const scriptSrc = (csp: unknown) => /script-src ([^;]*)/.exec(String(csp))?.[1].split(' ') ?? [];

describe('inline script hashes', () => {
  it('hash the body of each inline script, not external ones', () => {
    const html = '<script src="/a.js"></script><script>alert(1)</script><script type="module">\n x()\n</script>';
    // sha256("alert(1)") in base64, as a browser computes it for the CSP check.
    expect(inlineScriptHashes(html)).toEqual([
      "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='",
      expect.stringMatching(/^'sha256-[A-Za-z0-9+/]{43}='$/),
    ]);
  });
});

describe('Content-Security-Policy without inline scripts', () => {
  const t = useTestApp('sqlite');

  // API answers run no script at all (default-src 'none', security-headers.test.ts); these are the pages.
  it.each(['/admin/', '/admin/login', '/docs/', '/docs/api/scalar/', '/m/'])(
    "%s: script-src has no 'unsafe-inline'",
    async (url) => {
      const res = await t.app.inject(url);
      const sources = scriptSrc(res.headers['content-security-policy']);
      expect(sources).toContain("'self'");
      expect(sources).not.toContain("'unsafe-inline'");
    },
  );

  it.each(['/docs/', '/docs/guide/permissions.html', '/docs/api/scalar/', '/admin/', '/admin/users'])(
    '%s: every inline script on the page is allowed by its hash',
    async (url) => {
      const res = await t.app.inject(url);
      expect(res.headers['content-type']).toContain('text/html');
      const sources = scriptSrc(res.headers['content-security-policy']);
      for (const hash of inlineScriptHashes(res.body)) expect(sources).toContain(hash);
    },
  );

  it('the API reference really has an inline script (so the hash is what lets it run)', async () => {
    const res = await t.app.inject('/docs/api/scalar/');
    expect(inlineScriptHashes(res.body).length).toBeGreaterThan(0);
  });
});
