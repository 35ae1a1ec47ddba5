/**
 * The desktop home's numbers of the day, at 1440×900 and at 390×844, in Debian's headless Chromium against a real
 * server: today's public API requests, caller errors and server faults, online sessions, failed sign-ins and the last
 * audit entries, each as the server counts it and only for a user who may read it; and the audit log's grant change
 * in point names. Screenshots: docs/screenshots/admin-home-*.png, admin-audit-grants-*.png.
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
import { AUDIT_ACTIONS } from '../../../packages/server/src/admin/audit/actions.js';
import { VIEWPORTS, contextAt, signInAdmin, type Viewport } from './browser.js';

describe.skipIf(!hasChromium)('the desktop home shows the day’s numbers', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'admin' });
  const { shot } = suite;
  let api: Call;
  let partnerKey: { id: string; prefix: string };

  beforeAll(async () => {
    api = await adminCall(suite.t.app);
    partnerKey = await sendTodaysTraffic(api, suite.base, {
      // Today's public traffic: two good calls and one the caller got wrong.
      anonymous: ['year=2026', 'year=2026', 'year=99999'],
      // And a partner with a key: four calls, one wrong.
      key: '合作方甲',
      keyed: ['year=2026', 'year=2026', 'year=2025', 'year=99999'],
      // A failed sign-in, and (below) an audited grant change.
      clerk: 'home_clerk',
      failedSignIns: 1,
    });
    await createRole(api, 'home_editor', { 'system:user': 1 | 2 | 4 });
  });

  const open = (vp: Viewport) => suite.open(contextAt(vp));
  const signIn = (page: Page, username?: string, password?: string) =>
    signInAdmin(page, suite.base, username, password);

  /** What the server has now, read through the admin API the page uses. */
  async function serverNumbers() {
    const { day, start } = beijingToday();
    const usage = (await api('GET', `/api/admin/usage?from=${day}&to=${day}`)).json().data.items as Array<
      Record<'requests' | 'callerErrors' | 'serverErrors', number>
    >;
    const sum = (k: 'requests' | 'callerErrors' | 'serverErrors') => usage.reduce((s, r) => s + r[k], 0);
    const total = async (url: string) => (await api('GET', url)).json().data.total as number;
    return {
      requests: sum('requests'),
      callerErrors: sum('callerErrors'),
      serverErrors: sum('serverErrors'),
      sessions: await total('/api/sessions?pageSize=1'),
      failedSignIns: await total(
        `/api/login-logs?pageSize=1&event=login&result=failure&from=${encodeURIComponent(start)}`,
      ),
    };
  }
  const numberOf = (page: Page, key: string) =>
    page.locator(`[data-number="${key}"] [data-testid="number-value"]`).textContent();

  for (const vp of VIEWPORTS) {
    describe(`at ${vp.width}×${vp.height}`, () => {
      it('the numbers are the server’s, each tile opens its page, the last audit entries name action and target', async () => {
        const page = await open(vp);
        // Hold the sessions answer: its tile shows a skeleton meanwhile, never a zero or 「暂无数据」.
        let release!: () => void;
        const held = new Promise<void>((r) => {
          release = r;
        });
        await page.route('**/api/sessions?**', async (route) => {
          await held;
          await route.continue();
        });
        await signIn(page);
        await page.locator('[data-number="sessions"] .number-skeleton').waitFor();
        expect(await page.locator('[data-testid="home-today"]').getByText('暂无数据').count()).toBe(0);
        release();
        await page.locator('[data-number="sessions"] [data-testid="number-value"]').waitFor();
        await page.locator('[data-testid="home-audit-entry"]').first().waitFor();

        const server = await serverNumbers();
        expect(server).toMatchObject({ requests: 7, callerErrors: 2, serverErrors: 0, failedSignIns: 1 });
        expect(server.sessions).toBeGreaterThanOrEqual(2); // the test's own API session and this browser
        for (const [key, value] of Object.entries(server))
          expect([key, await numberOf(page, key)]).toEqual([key, String(value)]);
        expect(await page.locator('[data-number="serverErrors"]').textContent()).toContain('故障率 0.00%');

        // The newest entries as the server lists them: the action by its Chinese name, the target by its name.
        const audit = (await api('GET', '/api/audit-logs?pageSize=6')).json().data.items as Array<{
          action: keyof typeof AUDIT_ACTIONS;
          targetName: string;
        }>;
        const entries = page.locator('[data-testid="home-audit-entry"]');
        expect(await entries.count()).toBe(audit.length);
        const texts = await entries.allTextContents();
        audit.forEach((e, i) => {
          expect(texts[i]).toContain(AUDIT_ACTIONS[e.action].zh);
          expect(texts[i]).toContain(e.targetName);
          expect(texts[i]).not.toContain(e.action);
        });
        expect(texts.join('\n')).toMatch(/修改授权.*角色 (home_editor|r_home_watch_desktop)/);
        await shot(page, `admin-home-${vp.name}`);

        await page.locator('[data-number="sessions"]').click();
        await page.waitForURL(/\/admin\/system\/sessions/);
        await page.context().close();
      });

      it('the top callers today are the server’s, by key name and prefix or 匿名调用, each opening its usage', async () => {
        const page = await open(vp);
        await signIn(page);
        const rows = page.locator('[data-testid="home-caller"]');
        await rows.first().waitFor();
        const { day } = beijingToday();
        const callers = (await api('GET', `/api/admin/usage/callers?from=${day}&to=${day}`)).json().data
          .items as Array<{ apiKeyId: string | null; requests: number; callerErrors: number; serverFaults: number }>;
        expect(callers.map((c) => [c.apiKeyId, c.requests, c.callerErrors])).toEqual([
          [partnerKey.id, 4, 1],
          [null, 3, 1],
        ]);
        const cells = async (i: number) => (await rows.nth(i).locator('td').allTextContents()).map((x) => x.trim());
        expect(await rows.count()).toBe(2);
        expect(await cells(0)).toEqual([`合作方甲 tj_${partnerKey.prefix}…`, '4', '1', '0']);
        expect(await cells(1)).toEqual(['匿名调用（无密钥）', '3', '1', '0']);
        await page.locator('[data-testid="home-callers"]').scrollIntoViewIfNeeded();
        await shot(page, `admin-home-callers-${vp.name}`);

        // The key's row opens the usage page filtered by that key: its select shows the key, its table its calls.
        await rows.nth(0).locator('a').click();
        await page.waitForURL(new RegExp(`/admin/monitor/api\\?apiKey=${partnerKey.id}`));
        const picked = page.locator('[data-testid="usage-api-key"]');
        await picked.getByText(`合作方甲 tj_${partnerKey.prefix}…`).waitFor();
        await page.context().close();
      });

      it('the failed sign-ins tile opens the login log filtered to today’s failed sign-ins', async () => {
        const page = await open(vp);
        await signIn(page);
        await page.locator('[data-number="failedSignIns"] [data-testid="number-value"]').waitFor();
        const count = await numberOf(page, 'failedSignIns');
        await page.locator('[data-number="failedSignIns"]').click();
        const { day } = beijingToday();
        await page.waitForURL(/\/admin\/system\/login-logs\?/);
        const query = Object.fromEntries(new URL(page.url()).searchParams);
        expect(query).toEqual({ event: 'login', result: 'failure', from: day, to: day });
        const table = page.locator('[data-page="login-logs"] .el-table__body-wrapper .el-table__row');
        await table.first().waitFor();
        // Exactly the rows the tile counted, each a failed sign-in, and the form shows the filter applied.
        expect(String(await table.count())).toBe(count);
        for (const text of await table.allTextContents()) expect(text).toMatch(/登录.*失败/);
        const form = page.locator('[data-page="login-logs"] form').first();
        expect(await form.locator('.el-select__selected-item:not(.is-hidden)').allTextContents()).toEqual(
          expect.arrayContaining(['登录', '失败']),
        );
        expect(
          await form.locator('input[placeholder]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
        ).toEqual(expect.arrayContaining([day, day]));
        await page.context().close();
      });

      it('a user who may read only the sessions sees only that number, no usage and no audit', async () => {
        const name = `home_watch_${vp.name}`;
        await createUser(api, name, [await createRole(api, `r_${name}`, { 'system:session': 1 })]);
        const page = await open(vp);
        const asked: string[] = [];
        page.on('request', (r) => {
          if (r.url().includes('/api/')) asked.push(new URL(r.url()).pathname);
        });
        await signIn(page, name, PASSWORD);
        await page.locator('[data-number="sessions"] [data-testid="number-value"]').waitFor();
        expect(
          await page.locator('[data-number]').evaluateAll((els) => els.map((e) => e.getAttribute('data-number'))),
        ).toEqual(['sessions']);
        expect(await page.locator('[data-testid="home-audit"]').count()).toBe(0);
        expect(await page.locator('[data-testid="home-callers"]').count()).toBe(0);
        expect(asked.filter((p) => /usage|audit-logs|login-logs/.test(p))).toEqual([]);
        await page.context().close();
      });

      it('the audit log shows a grant change menu by menu in point names, not {"bits":7}', async () => {
        const page = await open(vp);
        await signIn(page);
        await page.goto(`${suite.base}/admin/system/audit-logs`);
        const row = page
          .locator('[data-page="audit"] .el-table__row', { hasText: '修改授权' })
          .filter({ hasText: 'home_editor' })
          .first();
        await row.waitFor();
        expect(await row.locator('[data-testid="audit-target-name"]').textContent()).toBe('角色 home_editor');
        await row.locator('[data-testid="audit-diff-open"]').click();
        const diff = page.locator('[data-testid="audit-diff"] .el-table__row', { hasText: '用户管理' });
        await diff.waitFor();
        expect(await diff.locator('.before').textContent()).toBe('—');
        expect(await diff.locator('.after').textContent()).toBe('查询、新增、编辑');
        expect(await page.locator('[data-dialog="audit-diff"]').textContent()).not.toContain('bits');
        await page.waitForTimeout(400); // the dialog's fade-in, for the picture
        await shot(page, `admin-audit-grants-${vp.name}`);
        await page.context().close();
      });
    });
  }
});
