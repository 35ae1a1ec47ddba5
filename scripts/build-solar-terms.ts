/**
 * Builds `data/solar-terms.json`: the moment of each of the 24 solar terms of every Gregorian year 1900–2100,
 * Beijing time (UTC+8) to the second, as `{"2026": ["2026-01-05 16:23:00", …24 moments, 小寒 … 冬至], …}`.
 *
 *   npx tsx scripts/build-solar-terms.ts
 *
 * Source: `astronomy-engine` (a dev dependency, never loaded at run time). `SearchSunLongitude` finds the moment
 * the Sun's apparent geocentric longitude (true equinox of date, aberration included) reaches k·15°, to 0.01 s of
 * the library's model; the moment is then rounded to the nearest second. The same library re-checks the table in
 * `packages/server/src/public/groups/life/solar-terms-data.test.ts`.
 */
import { writeFileSync } from 'node:fs';
import { computeSolarTermTable } from '../packages/server/src/engines/calendar/solar-terms-astronomy.js';

const table = computeSolarTermTable(1900, 2100);
const lines = Object.entries(table).map(([year, moments]) => `  "${year}": ${JSON.stringify(moments)}`);
writeFileSync(new URL('../data/solar-terms.json', import.meta.url), `{\n${lines.join(',\n')}\n}\n`);
console.log(`data/solar-terms.json: ${lines.length} years`);
