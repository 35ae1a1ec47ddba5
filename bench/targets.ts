/**
 * What `npm run bench` measures. Each target is one request shape fired at the real app; the bare node:http
 * baseline is measured first and every target is reported as a ratio to it. Add a public endpoint here by
 * appending one entry, e.g. `{ name: 'daily/almanac', path: '/api/almanac?date=2026-11-21' }`.
 */

import type { BenchContext, BenchTarget } from './bench-target.js';
import { PASSWORD_TARGETS } from './password-targets.js';

/**
 * Budgets of issue 31 (decision a): server CPU per request ÷ the target's answer floor's (bare Fastify with the same
 * headers, rate limit, metrics and ETag sending the same bytes), measured side by side by bench:floors.
 */
const HEALTH = 1.1;
const CACHED = 1.25;
const COMPUTED = 2;
const ADMIN_READ = 1.5;
/** Issue 32: a keyed request's server CPU ÷ the same request's made anonymously (bench:keyed, side by side). */
export const KEYED_BUDGET = 1.1;

const withBearer = async (ctx: BenchContext) => ({
  headers: { authorization: `Bearer ${(await ctx.login()).accessToken}` },
});

/**
 * A caller with an API key (issue 32): the key is created once through the admin API, with limits the load cannot
 * reach, so every request pays the key step (hash, cached lookup, checks, quota count, RateLimit headers) and none
 * is refused. Compare with the same path anonymous: keyed must cost at most 10 % more server CPU.
 */
export const withApiKey = async (ctx: BenchContext) => {
  const res = await fetch(`${ctx.baseUrl}/api/admin/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${(await ctx.login()).accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', perMinute: 1_000_000, perDay: 1_000_000_000 }),
  });
  if (res.status !== 201) throw new Error(`creating the bench API key failed: ${res.status} ${await res.text()}`);
  const { secret } = ((await res.json()) as { data: { secret: string } }).data;
  return { headers: { 'x-api-key': secret } };
};

export const TARGETS: BenchTarget[] = [
  // The framework floor: every global hook (security headers, CORS, metrics) and no database.
  { name: 'healthz', path: '/healthz', budget: HEALTH },
  // The heaviest per-request admin path: signature check, user/roles/grants from the database, the menu tree.
  { name: 'auth/me', path: '/api/auth/me', setup: withBearer, budget: ADMIN_READ },
  { name: 'auth/permissions', path: '/api/permissions', setup: withBearer, budget: COMPUTED },
  // Life services: deterministic answers served from the memo (the almanac and holiday answers of one day).
  { name: 'life/almanac', path: '/api/almanac?date=2026-11-21', budget: CACHED },
  // The same answer for a caller with an API key: the key step's cost over the line above.
  { name: 'keyed/almanac', path: '/api/almanac?date=2026-11-21', setup: withApiKey, budget: CACHED },
  { name: 'life/solar-term', path: '/api/solar-term?year=2026', budget: CACHED },
  { name: 'life/holiday', path: '/api/holiday?year=2025', budget: CACHED },
  { name: 'life/license-plate', path: `/api/license-plate?keyword=${encodeURIComponent('粤B')}`, budget: CACHED },
  // Not cached: an ip-region lookup (repeated addresses hit the provider's small answer cache), a random pick, a fresh user.
  { name: 'life/ip-region', path: '/api/ip-region?ip=223.5.5.5', budget: CACHED },
  { name: 'daily/hitokoto', path: '/api/hitokoto', budget: CACHED },
  { name: 'random/random-user', path: '/api/random-user?count=1', budget: COMPUTED },
  // ID numbers: a validation from the day's memo, and fresh generation (region table, lunar year table, checksum).
  { name: 'life/id-card', path: '/api/id-card?id=11010519491231002X', budget: COMPUTED },
  { name: 'random/random-id-card', path: '/api/random-id-card?count=1', budget: COMPUTED },
  { name: 'random/random-person', path: '/api/random-person?count=1', budget: COMPUTED },
  // A seeded avatar PNG: rendered once on a worker thread, then served from the byte-bounded image cache.
  { name: 'random/avatar-png', path: '/api/random-avatar/image?seed=bench&format=png', budget: COMPUTED },
  // Toolbox: images and colour tools are deterministic, so a repeated URL is rendered once and then served from the
  // route memo (ETag); random-color is drawn afresh each time (10 colours, each with a nearest-name search).
  {
    name: 'toolbox/qrcode-png',
    path: '/api/qrcode/image?text=https%3A%2F%2Fexample.com%2Ftianji&size=300',
    budget: COMPUTED,
  },
  {
    name: 'toolbox/qrcode-json',
    path: '/api/qrcode?text=https%3A%2F%2Fexample.com%2Ftianji&size=300',
    budget: COMPUTED,
  },
  { name: 'toolbox/barcode-png', path: '/api/barcode/image?text=400638133393&type=ean13', budget: COMPUTED },
  { name: 'toolbox/palette', path: '/api/palette?color=%233b82f6&name=brand', budget: COMPUTED },
  { name: 'toolbox/color-convert', path: '/api/color-convert?color=%233b82f6', budget: COMPUTED },
  { name: 'random/random-color', path: '/api/random-color?count=10', budget: COMPUTED },
  // Text endpoints served from the content library's in-memory snapshot.
  { name: 'daily/joke', path: '/api/joke', budget: CACHED },
  { name: 'daily/poem', path: '/api/poem', budget: CACHED },
  { name: 'daily/poem-game', path: `/api/poem-game?keyword=${encodeURIComponent('月')}&count=5`, budget: COMPUTED },
  { name: 'mood/mood-quote', path: '/api/mood-quote?style=toxic', budget: COMPUTED },
  { name: 'random/random-string', path: '/api/random-string?length=32', budget: COMPUTED },
  { name: 'random/random-emoji', path: '/api/random-emoji?count=5', budget: COMPUTED },
  { name: 'life/bmi', path: '/api/bmi?height=175&weight=70', budget: COMPUTED },
  { name: 'life/postcode', path: `/api/postcode?keyword=${encodeURIComponent('深圳')}`, budget: COMPUTED },
  { name: 'life/dialing-code', path: `/api/dialing-code?keyword=${encodeURIComponent('日本')}`, budget: COMPUTED },
  // Memory: the image routes at their largest sizes, each path a fresh seed (every one rendered once): the peak RSS
  // column shows what the image caches and render threads hold. Not a CPU budget target (rendering is the work).
  {
    name: 'images/largest',
    path: '/api/random-image/image?width=2048&height=2048&seed=bench-0&format=png',
    paths: Array.from(
      { length: 200 },
      (_, k) =>
        [
          `/api/random-image/image?width=2048&height=2048&seed=bench-${k}&format=png`,
          `/api/random-avatar/image?size=1024&seed=bench-${k}&format=png`,
          `/api/qrcode/image?size=2048&text=${encodeURIComponent(`https://example.com/tianji/${k}/${'x'.repeat(200)}`)}`,
          `/api/barcode/image?type=code128&scale=8&height=50&text=${encodeURIComponent(`TIANJI-${k}-`.padEnd(80, 'X'))}`,
        ][k % 4],
    ),
  },
  // Password strength: zxcvbn on worker threads, alone and while crafted slow passwords are hammered.
  ...PASSWORD_TARGETS,
];

/**
 * Every target with a CPU budget (all GET): what bench:floors measures by default, and what the warm pass of
 * bench:floors and bench:ab has the app serve before any target is measured (harness.ts prepareAndWarm).
 */
export const BUDGETED = TARGETS.filter((t) => t.budget !== undefined && (t.method ?? 'GET') === 'GET');
