/**
 * 接口密钥 in the admin app, at 1440×900 and 390×844, in Debian's headless Chromium against a real server: the list
 * with its statuses in Chinese, a key created in the dialog whose secret is shown once and works on the public API,
 * rotation with a grace, revocation (one and a batch), the key's traffic and limits, and the usage page by key with its
 * callers. Screenshots go to docs/screenshots/.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { adminCall, createApiKey, type Call } from '../../../packages/server/test/admin-fixtures.js';
import { VIEWPORTS, clickMenu, contextAt, signInAdmin, type Viewport } from './browser.js';

describe.skipIf(!hasChromium)('API keys in the admin app', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'admin' });
  const { shot } = suite;
  let admin: Call;

  /** Calls the public API with a secret: the HTTP status. */
  const publicCall = async (secret: string, endpoint = '/api/almanac?date=2026-11-21') =>
    (await fetch(`${suite.base}${endpoint}`, { headers: { 'x-api-key': secret } })).status;

  const createKey = (body: Record<string, unknown>) => createApiKey(admin, body);

  beforeAll(async () => {
    admin = await adminCall(suite.t.app);
    // A few callers with traffic: two keys, one of them limited, and anonymous calls.
    const partner = await createKey({
      name: '合作方 A 小程序',
      note: '张三 · 微信小程序',
      perMinute: 120,
      perDay: 50,
      groups: ['life', 'daily'],
      expiresAt: '2027-06-30T16:00:00.000Z',
    });
    const school = await createKey({ name: '实验中学', perDay: 10000 });
    for (let i = 0; i < 12; i++) expect(await publicCall(partner.secret)).toBe(200);
    for (let i = 0; i < 5; i++) expect(await publicCall(school.secret, '/api/holiday?year=2025')).toBe(200);
    for (let i = 0; i < 3; i++) await fetch(`${suite.base}/api/random-color`);
    const old = await createKey({ name: '旧版客户端' });
    expect((await admin('DELETE', `/api/admin/api-keys/${old.id}`)).statusCode).toBe(204);
  });

  const open = (vp: Viewport) => suite.open(contextAt(vp), ['clipboard-read', 'clipboard-write']);
  const signIn = (page: Page) => signInAdmin(page, suite.base);

  /** Opens 监控 › 接口密钥 from the side menu (on a phone, from the drawer). */
  async function openKeys(page: Page) {
    await clickMenu(page, 'monitor', 'monitor:api-key');
    const keys = page.locator('[data-page="api-keys"]');
    await keys.locator('.el-table__row', { hasText: '合作方 A 小程序' }).first().waitFor();
    await keys.locator('.el-loading-mask').waitFor({ state: 'hidden' });
    return keys;
  }

  for (const vp of VIEWPORTS) {
    it(`at ${vp.width}×${vp.height}: the list names statuses in Chinese, shows prefixes, limits and Beijing dates, never a secret`, async () => {
      const page = await open(vp);
      await signIn(page);
      const keys = await openKeys(page);
      const partner = keys.locator('.el-table__row', { hasText: '合作方 A 小程序' }).first();
      await expect(partner.textContent()).resolves.toMatch(/tj_[\w-]{8}…/);
      expect(await partner.textContent()).toContain('有效');
      expect(await partner.textContent()).toContain('2027-07-01 00:00'); // Beijing time
      expect(await keys.locator('.el-table__row', { hasText: '旧版客户端' }).first().textContent()).toContain('已吊销');
      expect(await keys.textContent()).not.toMatch(/tj_[\w-]{43}/);
      await shot(page, `admin-api-keys-${vp.name}`);
      await page.context().close();
    });
  }

  it('a key made in the dialog shows its secret once, with copy; the secret works on the public API within its group', async () => {
    const page = await open(VIEWPORTS[0]);
    await signIn(page);
    const keys = await openKeys(page);
    await keys.locator('.toolbar button', { hasText: '新增' }).click();
    const form = page.locator('[data-dialog="api-key-form"]');
    await form.locator('input[name="name"]').fill('数据大屏');
    await form.locator('input[name="note"]').fill('运维组');
    await form.locator('[name="perDay"] input, input[name="perDay"]').first().fill('2000');
    await form.locator('[data-testid="api-key-groups"]').click();
    const group = page.locator('.el-select-dropdown__item', { hasText: '生活服务' });
    await group.click();
    // A multiple select stays open after a pick, over the dialog's footer: close it as a person would (click
    // elsewhere in the form) before pressing 保存, or the click lands on the list instead.
    await form.locator('input[name="name"]').click();
    await group.waitFor({ state: 'hidden' });
    await form.locator('textarea[name="addresses"]').fill('127.0.0.1\n::1');
    await form.locator('[data-testid="save-api-key"]').click();
    const dialog = page.locator('[data-dialog="api-key-secret"]');
    await dialog.getByText('密钥只显示这一次').waitFor();
    const secret = await dialog.locator('input').first().inputValue();
    expect(secret).toMatch(/^tj_[\w-]{43}$/);
    await dialog.locator('[data-testid="copy-secret"]').click();
    await dialog.getByText('已复制').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shot(page, 'admin-api-key-secret-desktop');
    await dialog.locator('[data-testid="secret-saved"]').click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await publicCall(secret)).toBe(200); // almanac: life
    expect(await publicCall(secret, '/api/random-color')).toBe(403); // random: not allowed
    const row = keys.locator('.el-table__row', { hasText: '数据大屏' }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain('2000');
    expect(await keys.textContent()).not.toContain(secret);
    await page.context().close();
  });

  it('rotating with a grace of one hour keeps the old secret working; revoking refuses it at once', async () => {
    const { secret } = await createKey({ name: '待轮换' });
    const page = await open(VIEWPORTS[0]);
    await signIn(page);
    const keys = await openKeys(page);
    const row = () => keys.locator('.el-table__row', { hasText: '待轮换' }).first();
    await row().locator('button', { hasText: '轮换' }).click();
    const rotate = page.locator('[data-dialog="api-key-rotate"]');
    await rotate.getByText('1 小时').click();
    await rotate.locator('[data-testid="confirm-rotate"]').click();
    const dialog = page.locator('[data-dialog="api-key-secret"]');
    await dialog.getByText(/旧密钥在 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 前仍可使用/).waitFor();
    const fresh = await dialog.locator('input').first().inputValue();
    expect(fresh).not.toBe(secret);
    expect(await publicCall(secret)).toBe(200);
    expect(await publicCall(fresh)).toBe(200);
    await dialog.locator('[data-testid="secret-saved"]').click();

    await row().locator('button', { hasText: '吊销' }).click();
    await page
      .locator('.el-message-box', { hasText: '确定吊销接口密钥「待轮换」吗' })
      .locator('button', { hasText: '确定' })
      .click();
    await page.locator('.el-message', { hasText: '已吊销 1 个接口密钥' }).waitFor();
    await row().getByText('已吊销').waitFor();
    expect(await publicCall(fresh)).toBe(401);
    expect(await publicCall(secret)).toBe(401);
    await page.context().close();
  });

  it('batch revoke asks once for the selected keys', async () => {
    const a = await createKey({ name: '批量甲' });
    const b = await createKey({ name: '批量乙' });
    const page = await open(VIEWPORTS[0]);
    await signIn(page);
    const keys = await openKeys(page);
    for (const name of ['批量甲', '批量乙'])
      await keys.locator('.el-table__row', { hasText: name }).first().locator('.el-checkbox').click();
    await keys.locator('.toolbar button', { hasText: '批量吊销' }).click();
    await page
      .locator('.el-message-box', { hasText: '确定吊销选中的 2 个接口密钥吗' })
      .locator('button', { hasText: '确定' })
      .click();
    await page.locator('.el-message', { hasText: '已吊销 2 个接口密钥' }).waitFor();
    expect(await publicCall(a.secret)).toBe(401);
    expect(await publicCall(b.secret)).toBe(401);
    await page.context().close();
  });

  it('the status filter asks the server for 已吊销 keys only, and export downloads the list', async () => {
    const page = await open(VIEWPORTS[0]);
    await signIn(page);
    const keys = await openKeys(page);
    await keys.locator('[data-testid="api-key-status-filter"]').click();
    await page.locator('.el-select-dropdown__item', { hasText: '已吊销' }).click();
    const listed = page.waitForResponse(
      (r) => r.url().includes('/api/admin/api-keys?') && r.url().includes('status=revoked'),
    );
    await keys.locator('.search-form button', { hasText: '搜索' }).click();
    expect((await listed).ok()).toBe(true);
    await keys.locator('.el-table__row', { hasText: '旧版客户端' }).first().waitFor();
    expect(await keys.locator('.el-table__row', { hasText: '合作方 A 小程序' }).count()).toBe(0);
    const download = page.waitForEvent('download');
    await keys.locator('.toolbar button', { hasText: '导出' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);
    await page.context().close();
  });

  it('editing a key changes its limits and keeps its secret', async () => {
    const { id, secret } = await createKey({ name: '待编辑', perDay: 100, expiresAt: '2030-01-01T00:00:00.000Z' });
    const page = await open(VIEWPORTS[0]);
    await signIn(page);
    const keys = await openKeys(page);
    await keys.locator('.el-table__row', { hasText: '待编辑' }).first().locator('button', { hasText: '编辑' }).click();
    const form = page.locator('[data-dialog="api-key-form"]');
    expect(await form.locator('input[name="expiresAt"]').inputValue()).toBe('2030-01-01 08:00'); // Beijing time
    await form.locator('input[name="perDay"]').fill('20000');
    await form.locator('textarea[name="origins"]').fill('https://app.example.com');
    await form.locator('[data-testid="save-api-key"]').click();
    await form.waitFor({ state: 'hidden' });
    const key = (await admin('GET', `/api/admin/api-keys/${id}`)).json().data;
    expect(key).toMatchObject({
      perDay: 20000,
      origins: ['https://app.example.com'],
      expiresAt: '2030-01-01T00:00:00.000Z',
    });
    expect(await keys.locator('.el-table__row', { hasText: '待编辑' }).first().textContent()).toContain('20000');
    // Allowed origins now: a call without Origin is refused, the listed one answered.
    expect(await publicCall(secret)).toBe(403);
    const fromApp = await fetch(`${suite.base}/api/almanac?date=2026-11-21`, {
      headers: { 'x-api-key': secret, origin: 'https://app.example.com' },
    });
    expect(fromApp.status).toBe(200);
    await page.context().close();
  });

  it('groups checked as needing a key refuse anonymous callers at once, and answer keyed ones', async () => {
    const { secret } = await createKey({ name: '工具箱用户' });
    expect((await fetch(`${suite.base}/api/qrcode?text=x`)).status).toBe(200);
    const page = await open(VIEWPORTS[0]);
    await signIn(page);
    const keys = await openKeys(page);
    await keys.locator('.toolbar button', { hasText: '必须使用密钥的分组' }).click();
    const dialog = page.locator('[data-dialog="api-key-policy"]');
    await dialog.locator('.el-checkbox', { hasText: '工具箱' }).click();
    await dialog.locator('[data-testid="save-policy"]').click();
    await page.locator('.el-message', { hasText: '已保存' }).waitFor();
    expect((await fetch(`${suite.base}/api/qrcode?text=x`)).status).toBe(401);
    expect(await publicCall(secret, '/api/qrcode?text=x')).toBe(200);
    expect((await fetch(`${suite.base}/api/almanac?date=2026-11-21`)).status).toBe(200);
    // Opened again, the dialog shows what the server holds; unchecking opens the group again.
    await keys.locator('.toolbar button', { hasText: '必须使用密钥的分组' }).click();
    await dialog.locator('.el-checkbox.is-checked', { hasText: '工具箱' }).click();
    await dialog.locator('[data-testid="save-policy"]').click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await fetch(`${suite.base}/api/qrcode?text=x`)).status).toBe(200);
    await page.context().close();
  });

  for (const vp of VIEWPORTS) {
    it(`at ${vp.width}×${vp.height}: a key's traffic shows today's requests against its daily limit and its endpoints`, async () => {
      const page = await open(vp);
      await signIn(page);
      const keys = await openKeys(page);
      await keys
        .locator('.el-table__row', { hasText: '合作方 A 小程序' })
        .first()
        .locator('button', { hasText: '流量' })
        .click();
      const traffic = page.locator('[data-testid="api-key-traffic"]');
      await traffic.locator('[data-testid="limit-per-day"]').getByText('12 / 50').waitFor();
      expect(await traffic.textContent()).toContain('/api/almanac');
      expect(await traffic.locator('[data-testid="limit-per-minute"]').textContent()).toContain('120');
      expect(await traffic.textContent()).toContain('生活服务、每日推荐');
      // The drawer has slid in before the picture is taken.
      await page.waitForFunction(() => document.querySelector('.el-drawer')?.getAnimations().length === 0);
      await shot(page, `admin-api-key-traffic-${vp.name}`);
      await page.context().close();
    });
  }

  it('the usage page lists the callers (keys and 匿名) and filters by a key', async () => {
    const page = await open(VIEWPORTS[0]);
    await signIn(page);
    await page.goto(`${suite.base}/admin/monitor/api`);
    const usage = page.locator('[data-page="usage"]');
    const callers = usage.locator('[data-testid="usage-callers"]');
    await callers.locator('.el-table__row', { hasText: '合作方 A 小程序' }).waitFor();
    expect(await callers.locator('.el-table__row', { hasText: '匿名调用（无密钥）' }).count()).toBe(1);
    const filtered = page.waitForResponse((r) => r.url().includes('/api/admin/usage?') && r.url().includes('apiKey='));
    await callers.locator('.el-table__row', { hasText: '实验中学' }).click();
    expect((await filtered).ok()).toBe(true);
    await usage.locator('.el-table').first().getByText('/api/holiday').waitFor();
    expect(await usage.locator('.el-table').first().textContent()).not.toContain('/api/almanac');
    await shot(page, 'admin-usage-desktop');
    await page.context().close();
  });
});
