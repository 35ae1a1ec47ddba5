/**
 * Builds `data/ip-gazetteer.json`: what ip-region needs of the npm package `country-state-city` (ODbL data from the
 * countries-states-cities database), so the service never loads the package (the whole world's cities, ~60 MB of
 * memory once imported) at run time.
 *
 *   npx tsx scripts/build-ip-gazetteer.ts
 *
 * The values are the package's, unchanged, as numbers where it gives coordinates as text (`Number(...)`, as the
 * service always read them): each country's ISO code, centre and time zone names; each first-level subdivision's
 * country, ISO code and English name (ip-region needs only its code); each mainland Chinese city's province code, pinyin name and centre.
 * `packages/server/test/ip-gazetteer.test.ts` checks that the shipped file answers every lookup as the package does.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Package from 'country-state-city';
import type { GazetteerData } from '../packages/server/src/engines/ip/ip-gazetteer.js';

const require = createRequire(import.meta.url);
const { City, Country, State } = require('country-state-city') as typeof Package;
const { version } = require('country-state-city/package.json') as { version: string };

const data: GazetteerData = {
  source: `country-state-city ${version}`,
  countries: Country.getAllCountries().map((c) => [
    c.isoCode,
    Number(c.latitude),
    Number(c.longitude),
    (c.timezones ?? []).map((z) => z.zoneName),
  ]),
  subdivisions: Country.getAllCountries().flatMap((c) =>
    State.getStatesOfCountry(c.isoCode).map((s) => [c.isoCode, s.isoCode, s.name] as GazetteerData['subdivisions'][0]),
  ),
  chinaCities: (City.getCitiesOfCountry('CN') ?? []).map((c) => [
    c.stateCode,
    c.name,
    Number(c.latitude),
    Number(c.longitude),
  ]),
};
// One entry per line: small diffs when the package is updated.
const lines = (rows: unknown[]) => rows.map((r) => `    ${JSON.stringify(r)}`).join(',\n');
const json = `{
  "source": ${JSON.stringify(data.source)},
  "countries": [
${lines(data.countries)}
  ],
  "subdivisions": [
${lines(data.subdivisions)}
  ],
  "chinaCities": [
${lines(data.chinaCities)}
  ]
}
`;
writeFileSync(new URL('../data/ip-gazetteer.json', import.meta.url), json);
console.log(
  `data/ip-gazetteer.json: ${data.countries.length} countries, ${data.subdivisions.length} subdivisions, ${data.chinaCities.length} Chinese cities (${(json.length / 1024).toFixed(0)} KiB)`,
);
