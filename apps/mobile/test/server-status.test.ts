/**
 * 服务监控 on the phone, at 390×844 and 1440×900 in Debian's headless Chromium against a real server: reached from the
 * home's 服务状态, the same cards as the desktop (web-core) with values in units, labels in Chinese only, reading again
 * by itself. Screenshots: docs/screenshots/mobile-server-status-*.png.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../../../test/chromium.js';
import { useBrowserSuite } from '../../../packages/server/test/browser-suite.js';
import { ADMIN } from '../../../packages/server/test/helpers.js';
import { ROOT, signInMobile, VIEWPORTS } from './browser.js';

const CARDS = ['cpu', 'memory', 'process', 'database', 'redis', 'passwordPool', 'requests'];
/** A shown text as a person reads it: spaces collapsed, trimmed. */
const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();
const PROPER = /\b(CPU|Redis|Node\.js|SQLite|PostgreSQL)\b/g;

describe.skipIf(!hasChromium)('服务监控 on the phone', { timeout: 90_000 }, () => {
  const suite = useBrowserSuite({ app: 'mobile', shots: path.join(ROOT, 'docs/screenshots') });

  for (const vp of VIEWPORTS) {
    it(`at ${vp.width}×${vp.height}: opened from the home, the cards show values with units and refresh by themselves`, async () => {
      const page = await suite.open({
        viewport: { width: vp.width, height: vp.height },
        isMobile: vp.isMobile,
        hasTouch: vp.isMobile,
        serviceWorkers: 'block',
      });
      await signInMobile(page, suite.base, ADMIN.username, ADMIN.password);
      await page.locator('[data-testid="server-status-entry"]').click();
      await page.locator('[data-page="server-status"]').waitFor();
      for (const card of CARDS) await page.locator(`[data-testid="status-${card}"]`).waitFor();

      const cell = (card: string, label: string) =>
        page
          .locator(`[data-testid="status-${card}"] .van-cell`, { hasText: label })
          .locator('[data-testid="status-value"]');
      expect(await cell('memory', '进程常驻内存').textContent().then(text)).toMatch(/^\d+(\.\d+)? MB$/);
      expect(await cell('database', '查询耗时').textContent().then(text)).toMatch(/^[\d.]+ ms$/);
      expect(await cell('process', '启动时间').textContent().then(text)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      expect(await cell('process', '已运行').textContent().then(text)).toMatch(/分钟$/);

      const labels = await page
        .locator(
          '[data-page="server-status"] :is(.van-nav-bar, .van-cell-group__title, .van-cell__title, .section-title)',
        )
        .allTextContents();
      expect(
        labels
          .join('\n')
          .replace(PROPER, '')
          .match(/[A-Za-z]{2,}/g) ?? [],
      ).toEqual([]);

      const updated = page.locator('[data-testid="server-status-updated"]');
      const first = await updated.textContent().then(text);
      expect(first).toMatch(/^更新于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
      await suite.shot(page, `mobile-server-status-${vp.name}`);
      await expect.poll(() => updated.textContent().then(text), { timeout: 20_000, interval: 250 }).not.toBe(first);
      await page.context().close();
    });
  }
});
