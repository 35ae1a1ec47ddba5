/**
 * Cold load of the documentation site and the API reference in Chromium, as a first visitor sees it: a fresh
 * browser profile (empty cache), the page opened, the time until its content is usable. Also lists every request
 * to another host (there must be none) and can save screenshots.
 *
 *   npx tsx scripts/measure-docs-load.ts http://127.0.0.1:3000 [--runs 3] [--screenshots docs/screenshots]
 */
import { launchChromium } from '../test/chromium.js';

const base = process.argv[2] ?? 'http://127.0.0.1:3000';
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const runs = Number(arg('--runs') ?? 3);
const shots = arg('--screenshots');

/** Each page and what on it means "usable": text a reader looks for, rendered. */
const PAGES = [
  { name: 'home', path: '/docs/', ready: 'text=快速开始' },
  { name: 'guide', path: '/docs/guide/permissions.html', ready: 'h1:has-text("权限模型")' },
  { name: 'reference', path: '/docs/api/', ready: '.api-op >> nth=0' },
  // Scalar's console, for comparison (--scalar).
  ...(process.argv.includes('--scalar')
    ? [{ name: 'scalar', path: '/docs/api/scalar/', ready: 'text=每日推荐 Daily' }]
    : []),
];

const browser = await launchChromium();
try {
  for (const p of PAGES) {
    const times: number[] = [];
    const cpu: number[] = [];
    const outside = new Set<string>();
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      page.on('request', (r) => {
        if (!r.url().startsWith(base) && !r.url().startsWith('data:') && !r.url().startsWith('blob:'))
          outside.add(r.url());
      });
      page.on('response', async (r) => {
        const len = Number(r.headers()['content-length'] ?? 0);
        bytes += len;
      });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const t0 = Date.now();
      await page.goto(base + p.path);
      await page.waitForSelector(p.ready, { timeout: 60_000 });
      times.push(Date.now() - t0);
      // Main-thread busy time (script, style, layout, paint): what the page costs, less the machine's other load.
      const { metrics } = await cdp.send('Performance.getMetrics');
      cpu.push(1000 * (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0));
      await context.close();
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] / 1000;
    console.log(
      `${p.name.padEnd(10)} cold load ${times.map((t) => (t / 1000).toFixed(2)).join(' ')} s (median ${median(times).toFixed(2)} s); ` +
        `main-thread busy median ${median(cpu).toFixed(2)} s; ${(bytes / 1024).toFixed(0)} KiB over ${runs} runs; ` +
        `other hosts: ${outside.size ? [...outside].join(' ') : 'none'}`,
    );
  }
  if (shots) {
    for (const [label, viewport] of [
      ['desktop', { width: 1440, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const context = await browser.newContext({ viewport, deviceScaleFactor: 1, isMobile: label === 'phone' });
      const page = await context.newPage();
      for (const p of PAGES) {
        await page.goto(base + p.path);
        await page.waitForSelector(p.ready, { timeout: 60_000 });
        await page.waitForTimeout(500);
        await page.screenshot({ path: `${shots}/docs-${p.name}-${label}.png` });
      }
      await context.close();
    }
    console.log(`screenshots in ${shots}`);
  }
} finally {
  await browser.close();
}
