/**
 * 接口密钥 in the phone app, at 390×844 and 1440×900, in Debian's headless Chromium against a real server: the list with
 * statuses in Chinese and a status filter, a key's page with its limits and today's requests, and revoking it (the
 * secret is refused at once). Screenshots go to docs/screenshots/.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { adminCall, createApiKey, type Call } from '../../../packages/server/test/admin-fixtures.js';
import { VIEWPORTS, contextAt, signInMobile, type Viewport } from './browser.js';

describe.skipIf(!hasChromium)('API keys in the phone app', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'mobile' });
  const { shot } = suite;
  let admin: Call;

  const publicCall = async (secret: string) =>
    (await fetch(`${suite.base}/api/almanac?date=2026-11-21`, { headers: { 'x-api-key': secret } })).status;
  const createKey = (body: Record<string, unknown>) => createApiKey(admin, body);

  beforeAll(async () => {
    admin = await adminCall(suite.t.app);
    const partner = await createKey({ name: '合作方 A 小程序', note: '张三 · 微信小程序', perMinute: 120, perDay: 50 });
    for (let i = 0; i < 7; i++) expect(await publicCall(partner.secret)).toBe(200);
    await createKey({ name: '实验中学', groups: ['life'] });
    const old = await createKey({ name: '旧版客户端' });
    expect((await admin('DELETE', `/api/admin/api-keys/${old.id}`)).statusCode).toBe(204);
  });

  const open = (vp: Viewport) => suite.open(contextAt(vp));

  async function openKeys(page: Page) {
    await signInMobile(page, suite.base);
    await page.locator('[data-testid="tabbar"]').getByText('密钥').click();
    const keys = page.locator('[data-page="api-keys"]');
    await keys.locator('[data-api-key="合作方 A 小程序"]').waitFor();
    return keys;
  }

  for (const vp of VIEWPORTS) {
    describe(`at ${vp.width}×${vp.height}`, () => {
      it('the list shows each key by name and prefix with its status in Chinese, and filters by status', async () => {
        const page = await open(vp);
        const keys = await openKeys(page);
        const partner = keys.locator('[data-api-key="合作方 A 小程序"]');
        expect(await partner.textContent()).toMatch(/tj_[\w-]{8}…/);
        expect(await partner.textContent()).toContain('有效');
        expect(await keys.locator('[data-api-key="旧版客户端"]').textContent()).toContain('已吊销');
        await shot(page, `mobile-api-keys-${vp.name}`);
        await keys.locator('.van-dropdown-menu__item').click();
        const listed = page.waitForResponse(
          (r) => r.url().includes('/api/admin/api-keys?') && r.url().includes('status=revoked'),
        );
        await page.locator('.van-dropdown-item__option', { hasText: '已吊销' }).click();
        expect((await listed).ok()).toBe(true);
        await keys.locator('[data-api-key="旧版客户端"]').waitFor();
        expect(await keys.locator('[data-api-key="合作方 A 小程序"]').count()).toBe(0);
        await page.context().close();
      });

      it('a key’s page shows its limits and today’s requests against the daily limit', async () => {
        const page = await open(vp);
        const keys = await openKeys(page);
        await keys.locator('[data-api-key="合作方 A 小程序"]').click();
        const key = page.locator('[data-page="api-key"]');
        await key.locator('[data-testid="api-key-usage"]').getByText('7 / 50').waitFor();
        expect(await key.textContent()).toContain('/api/almanac');
        expect(await key.textContent()).toContain('张三 · 微信小程序');
        await shot(page, `mobile-api-key-${vp.name}`);
        await page.context().close();
      });
    });
  }

  it('revoking from the key’s page asks first; the secret is refused at once', async () => {
    const { secret } = await createKey({ name: '手机上吊销' });
    expect(await publicCall(secret)).toBe(200);
    const page = await open(VIEWPORTS[0]);
    const keys = await openKeys(page);
    await keys.locator('[data-api-key="手机上吊销"]').click();
    const key = page.locator('[data-page="api-key"]');
    await key.locator('[data-route="DELETE /api/admin/api-keys/{id}"]').click();
    await page
      .locator('.van-dialog', { hasText: '确定吊销接口密钥「手机上吊销」吗' })
      .locator('.van-dialog__confirm')
      .click();
    await key.locator('[data-testid="api-key-status-tag"]', { hasText: '已吊销' }).waitFor();
    expect(await publicCall(secret)).toBe(401);
    await page.context().close();
  });
});
