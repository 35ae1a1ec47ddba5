/**
 * ip-region over the real packaged databases: every answer's place (region code, region name, city, postcode,
 * coordinates, time zone) is one record's, never a region or city named by one database paired with the code,
 * postcode or point of a place the other database means (issue 50). 10,000 addresses, generated deterministically.
 */
import { describe, expect, it } from 'vitest';
import { findChinaRegion, GREATER_CHINA } from '../src/engines/ip/china-regions.js';
import { placeKey, subdivision } from '../src/engines/ip/ip-gazetteer.js';
import { ChinaCityNames, cityPinyin, OfflineIpRegionProvider } from '../src/engines/ip/ip-region.js';
import { openIpSources, type CityPlace } from '../src/engines/ip/ip-region-sources.js';
import { loadPostcodes } from '../src/engines/postcodes/postcodes.js';
import { seededRng } from '../src/shared/rng.js';

const ADDRESSES = 10_000;

/** A fixed sequence of IPv4 addresses outside 0/8 and the multicast and reserved blocks: the same on every run. */
function* addresses(count: number): Generator<string> {
  const rng = seededRng('issue-50 addresses');
  for (let i = 0; i < count; i++) yield [1 + rng.int(223), rng.int(256), rng.int(256), rng.int(256)].join('.');
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** The ISO 3166-2 code the City record's region stands for, as ip-region reads it. */
function cityRecordRegion(countryCode: string, geo: CityPlace): string | undefined {
  if (geo.regionCode) return geo.regionCode.toUpperCase();
  const en = geo.regionName.en;
  if (!en) return undefined;
  return GREATER_CHINA.has(countryCode) ? findChinaRegion(en)?.code : subdivision(countryCode, en)?.code;
}

describe('ip-region: one source per answer (real databases)', () => {
  it(`never mixes two databases' places in one answer, over ${ADDRESSES.toLocaleString('en')} addresses`, () => {
    const sources = openIpSources();
    const provider = new OfflineIpRegionProvider(sources, new ChinaCityNames(loadPostcodes()));
    const mixed: string[] = [];
    let abroadWithPlace = 0;
    for (const address of addresses(ADDRESSES)) {
      const geo = sources.city.find(address, 4);
      for (const lang of ['zh-CN', 'en'] as const) {
        const a = provider.lookup(address, 4, lang);
        if (!a) continue;
        const record = geo && geo.countryCode === a.countryCode ? geo : undefined;
        const fromRecord =
          !!record &&
          record.lat !== undefined &&
          record.lon !== undefined &&
          a.lat === round4(record.lat) &&
          a.lon === round4(record.lon);
        const problems: string[] = [];
        // A postcode only ever comes from the City record, so the point must be the same record's.
        if (a.zip && (!fromRecord || a.zip !== record?.zip)) problems.push('postcode without its record');
        if (fromRecord && record && a.accuracy !== 'country') {
          const code = cityRecordRegion(a.countryCode, record);
          if (code && a.region !== code) problems.push(`region ${a.region} but the point's record is in ${code}`);
          if (a.accuracy === 'city' && record.city.en) {
            const answerCity = lang === 'en' ? a.city : cityPinyin(a.city);
            const sameCity =
              placeKey(answerCity) === placeKey(record.city.en) ||
              a.city === record.city.zh ||
              a.city === record.city.en;
            if (!sameCity) problems.push(`city ${a.city} but the point's record is ${record.city.en}`);
          }
        }
        if (!GREATER_CHINA.has(a.countryCode) && a.accuracy !== 'country') {
          abroadWithPlace++;
          // Abroad the City record is the place: its names, in Chinese where it has them.
          const names = (n: { en?: string; zh?: string }) => [n.en, n.zh].filter(Boolean);
          if (!fromRecord) problems.push('a place abroad not at its record’s point');
          else if (!names(record!.regionName).includes(a.regionName) && a.regionName)
            problems.push(`region name ${a.regionName} is not its record's (${record!.regionName.en})`);
          else if (a.city && !names(record!.city).includes(a.city))
            problems.push(`city ${a.city} is not its record's (${record!.city.en})`);
          if (record?.timezone && a.timezone !== record.timezone) problems.push('time zone of another place');
        }
        if (problems.length) mixed.push(`${address} ${lang}: ${problems.join('; ')}`);
      }
    }
    expect(abroadWithPlace).toBeGreaterThan(1_000);
    expect(mixed.slice(0, 10), `${mixed.length} mixed answers`).toEqual([]);
  });
});
