/**
 * The phone home's numbers of the day, from the same web-core reader as the desktop home, at 390×844 and 1440×900
 * against a real server: today's public API calls, online sessions and failed sign-ins, each as the server counts it.
 * Screenshots: docs/screenshots/mobile-home-*.png (this file alone writes them).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import {
  adminCall,
  createRole,
  createUser,
  PASSWORD,
  sendTodaysTraffic,
  type Call,
} from '../../../packages/server/test/admin-fixtures.js';
import { beijingToday } from '../../../packages/web-core/src/home-numbers.js';
import { VIEWPORTS, contextAt, signInMobile, type Viewport } from './browser.js';

describe.skipIf(!hasChromium)('the phone home shows the day’s numbers', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'mobile' });
  const { shot } = suite;
  let api: Call;
  let partnerKey: { id: string; prefix: string };

  beforeAll(async () => {
    api = await adminCall(suite.t.app);
    partnerKey = await sendTodaysTraffic(api, suite.base, {
      anonymous: ['year=2026', 'year=99999'],
      // A partner with a key: three calls, one wrong.
      key: '合作方乙',
      keyed: ['year=2026', 'year=2025', 'year=99999'],
      clerk: 'm_home_clerk',
      failedSignIns: 2,
    });
  });

  const open = (vp: Viewport) => suite.open(contextAt(vp));
  const signIn = (page: Page, username?: string, password?: string) =>
    signInMobile(page, suite.base, username, password);
  const value = (page: Page, testid: string) => page.locator(`[data-testid="${testid}"] .num-inline`).textContent();

  for (const vp of VIEWPORTS) {
    describe(`at ${vp.width}×${vp.height}`, () => {
      it('usage, online sessions and failed sign-ins today are the server’s numbers', async () => {
        const page = await open(vp);
        await signIn(page);
        await page.locator('[data-testid="home-failed-sign-ins"] .num-inline').waitFor();
        await page.locator('[data-testid="home-sessions"] .num-inline').waitFor();
        const { start } = beijingToday();
        const total = async (url: string) => String((await api('GET', url)).json().data.total);
        const failed = `/api/login-logs?pageSize=1&event=login&result=failure&from=${encodeURIComponent(start)}`;
        expect(await total(failed)).toBe('2');
        expect(await value(page, 'home-failed-sign-ins')).toBe(await total(failed));
        expect(await value(page, 'home-sessions')).toBe(await total('/api/sessions?pageSize=1'));
        expect(await page.locator('[data-testid="usage-requests"]').textContent()).toBe('5');
        expect(await page.locator('[data-testid="usage-caller-errors"]').textContent()).toBe('2');
        await shot(page, `mobile-home-${vp.name}`);
        await page.locator('[data-testid="home-sessions"]').click();
        await page.waitForURL(/\/m\/sessions/);
        await page.context().close();
      });

      it('the top callers today are the server’s, a key’s row opening the key’s own page', async () => {
        const page = await open(vp);
        await signIn(page);
        const rows = page.locator('[data-testid="home-caller"]');
        await rows.first().waitFor();
        const { day } = beijingToday();
        const callers = (await api('GET', `/api/admin/usage/callers?from=${day}&to=${day}`)).json().data.items;
        expect(callers.map((c: { apiKeyId: string | null; requests: number }) => [c.apiKeyId, c.requests])).toEqual([
          [partnerKey.id, 3],
          [null, 2],
        ]);
        expect(await rows.count()).toBe(2);
        const lines = async (i: number) =>
          (await rows.nth(i).locator('.van-cell__title > span, .van-cell__label, .van-cell__value').allTextContents())
            .map((x) => x.trim())
            .sort();
        expect(await lines(0)).toEqual(
          ['3 次', `合作方乙 tj_${partnerKey.prefix}…`, '调用方错误 1 · 服务故障 0'].sort(),
        );
        expect(await lines(1)).toEqual(['2 次', '匿名调用（无密钥）', '调用方错误 1 · 服务故障 0'].sort());
        await page.locator('[data-testid="home-callers"]').scrollIntoViewIfNeeded();
        await shot(page, `mobile-home-callers-${vp.name}`);
        // The phone has no usage page: a key's row opens the key, whose page shows its traffic; anonymous opens nothing.
        expect(await rows.nth(0).locator('.van-cell__right-icon').count()).toBe(1);
        expect(await rows.nth(1).locator('.van-cell__right-icon').count()).toBe(0);
        await rows.nth(0).click();
        await page.waitForURL(new RegExp(`/m/api-keys/${partnerKey.id}$`));
        await page.locator('[data-testid="api-key-usage"]').waitFor();
        await page.context().close();
      });

      it('today’s failed sign-ins open the login log filtered to those rows', async () => {
        const page = await open(vp);
        await signIn(page);
        const cell = page.locator('[data-testid="home-failed-sign-ins"]');
        await cell.locator('.num-inline').waitFor();
        const count = Number(await value(page, 'home-failed-sign-ins'));
        expect(count).toBeGreaterThanOrEqual(2);
        await cell.click();
        await page.waitForURL(/\/m\/sessions\?/);
        const { day } = beijingToday();
        expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
          event: 'login',
          result: 'failure',
          from: day,
          to: day,
        });
        expect(await page.locator('[data-testid="login-log-filter"]').textContent()).toContain(
          `只看：登录 · 失败 · ${day}`,
        );
        const rows = page.locator('[data-testid="login-log-row"]');
        await rows.first().waitFor();
        await page.waitForTimeout(300); // the list's next page, if it asks one
        expect(await rows.count()).toBe(count);
        for (const tag of await rows.locator('.van-tag').allTextContents()) expect(tag.trim()).toBe('失败');
        await shot(page, `mobile-login-log-failures-${vp.name}`);
        // Clearing the filter shows the whole log again (the sign-ins that worked too).
        await page.locator('[data-testid="login-log-filter"] .van-tag__close').click();
        await page.locator('[data-testid="login-log-row"] .van-tag', { hasText: '成功' }).first().waitFor();
        await page.context().close();
      });

      it('a user without the login log sees no failed sign-ins and asks nothing of it', async () => {
        const name = `m_home_watch_${vp.name}`;
        await createUser(api, name, [await createRole(api, `r_${name}`, { 'system:session': 1 })]);
        const page = await open(vp);
        const asked: string[] = [];
        page.on('request', (r) => {
          if (r.url().includes('/api/')) asked.push(new URL(r.url()).pathname);
        });
        await signIn(page, name, PASSWORD);
        await page.locator('[data-testid="home-sessions"] .num-inline').waitFor();
        expect(await page.locator('[data-testid="home-failed-sign-ins"]').count()).toBe(0);
        expect(await page.locator('[data-testid="usage-today"]').count()).toBe(0);
        expect(await page.locator('[data-testid="home-callers"]').count()).toBe(0);
        expect(asked.filter((p) => /usage|login-logs/.test(p))).toEqual([]);
        await page.context().close();
      });
    });
  }
});
