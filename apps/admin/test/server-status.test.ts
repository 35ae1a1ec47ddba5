/**
 * 服务监控 in the admin app, at 1440×900 and 390×844 in Debian's headless Chromium against a real server: RuoYi's
 * cards (CPU, 内存, 服务器/进程, 数据库, Redis, 密码校验线程池, 请求) with values in units, labels in Chinese only, and
 * the page reading again by itself (更新于 moves without a click). Screenshots: docs/screenshots/admin-server-status-*.png.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { ADMIN } from '../../../packages/server/test/helpers.js';
import { MENUS } from '../../../packages/server/src/catalogue/index.js';
import { ROOT, clickMenu, signInAdmin, VIEWPORTS } from './browser.js';

const CARDS = ['cpu', 'memory', 'process', 'database', 'redis', 'passwordPool', 'requests'];
/** Names and abbreviations the Chinese page keeps as they are (what RuoYi's 服务监控 shows too). */
/** A shown text as a person reads it: spaces collapsed, trimmed. */
const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();
const PROPER = /\b(CPU|Redis|Node\.js|SQLite|PostgreSQL)\b/g;

const cardValue = (page: Page, card: string, label: string) =>
  page
    .locator(`[data-testid="status-${card}"] dt`, { hasText: label })
    .locator('xpath=following-sibling::dd[1]')
    .textContent()
    .then(text);

describe.skipIf(!hasChromium)('服务监控 in the admin app', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'admin', shots: path.join(ROOT, 'docs/screenshots') });

  for (const vp of VIEWPORTS) {
    it(`at ${vp.width}×${vp.height}: the cards show values with units in Chinese, and refresh by themselves`, async () => {
      for (let i = 0; i < 3; i++) await fetch(`${suite.base}/api/holiday?year=2026`);
      const page = await suite.open({ viewport: { width: vp.width, height: vp.height } });
      await signInAdmin(page, suite.base, ADMIN.username, ADMIN.password);
      await clickMenu(page, MENUS.monitor.code, MENUS.serverStatus.code);
      for (const card of CARDS) await page.locator(`[data-testid="status-${card}"]`).waitFor();

      expect(await cardValue(page, 'cpu', '进程占用')).toMatch(/^\d+\.\d%$/);
      expect(await cardValue(page, 'memory', '进程常驻内存')).toMatch(/^\d+(\.\d+)? MB$/);
      expect(await cardValue(page, 'memory', '堆内存')).toMatch(/^[\d.]+ MB \/ [\d.]+ MB$/);
      expect(await cardValue(page, 'process', '启动时间')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      expect(await cardValue(page, 'process', '已运行')).toMatch(/分钟$/);
      expect(await cardValue(page, 'database', '类型')).toBe('SQLite');
      expect(await cardValue(page, 'database', '状态')).toBe('正常');
      expect(await cardValue(page, 'database', '查询耗时')).toMatch(/^[\d.]+ ms$/);
      expect(await cardValue(page, 'redis', '状态')).toBe('未配置（限流按实例计）');
      expect(Number(await cardValue(page, 'requests', '请求数'))).toBeGreaterThanOrEqual(3);

      // Every label, title and the toolbar in Chinese: no English word but the names RuoYi keeps too.
      const words = await page
        .locator('[data-page="server-status"] :is(h3, dt, .toolbar)')
        .allTextContents()
        .then((texts) => texts.join('\n').replace(PROPER, ''));
      expect(words.match(/[A-Za-z]{2,}/g) ?? []).toEqual([]);

      const updated = page.locator('[data-testid="server-status-updated"]');
      const first = await updated.textContent().then(text);
      expect(first).toMatch(/^更新于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      await suite.shot(page, `admin-server-status-${vp.name}`);
      // Without a click: the page reads again on its own.
      await expect.poll(() => updated.textContent().then(text), { timeout: 20_000, interval: 250 }).not.toBe(first);
      // And at once on 刷新.
      const read = page.waitForResponse((r) => r.url().endsWith('/api/admin/server-status') && r.status() === 200);
      await page.locator('[data-testid="server-status-refresh"]').click();
      await read;
      await page.context().close();
    });
  }
});
