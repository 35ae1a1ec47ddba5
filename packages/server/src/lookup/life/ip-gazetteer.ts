/**
 * Places by name, for ip-region: the centre of a country, a first-level subdivision's ISO code and centre, and a
 * Chinese city's coordinates — from the npm package `country-state-city` (ODbL data from the countries-states-cities
 * database), read once. ip-region uses it when the IP databases name a place but give no coordinates of their own
 * for it (or give another place's), so that coordinates and names come from one place.
 *
 * Pure module: no HTTP framework here.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Package from 'country-state-city';

export interface Centre {
  lat: number;
  lon: number;
}

export interface CountryCentre extends Centre {
  /** The country's time zone when it has exactly one (`Asia/Tokyo`); empty when it spans several. */
  timezone: string;
}

export interface Subdivision extends Centre {
  /** ISO 3166-2 code without the country, e.g. `CA`, `BY`, `13`. */
  code: string;
  name: string;
}

/** Lower case, no accents, spaces, hyphens or apostrophes: `Ürümqi` → `urumqi`, `Xi'an` → `xian`. */
export const placeKey = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s'’\-.]/gu, '');

/** Country-level time zones where the country has one legal time even though the tz database lists several. */
const LEGAL_TIME: Record<string, string> = { CN: 'Asia/Shanghai' };

/** Descriptive tails GeoLite2 and others add to subdivision names. */
const TAIL = /(province|prefecture|state|region|county|governorate|oblast|autonomousregion)$/u;

interface Gazetteer {
  countries: Map<string, CountryCentre>;
  /** Per country, its first-level subdivisions by name key, with and without a descriptive tail. */
  subdivisions: Map<string, Map<string, Subdivision>>;
  /** Mainland Chinese cities by `<province code>|<name key>`. */
  chinaCities: Map<string, Centre>;
}

let gazetteer: Gazetteer | undefined;

/**
 * What ip-region needs of `country-state-city`, built at the first lookup that needs it; the package is then
 * dropped from the module cache. It holds the whole world's cities in memory (~60 MB of RSS once imported), which
 * an instance should not pay for before its first ip-region request nor keep after it: these maps are a few MB.
 */
function places(): Gazetteer {
  if (gazetteer) return gazetteer;
  const require = createRequire(import.meta.url);
  const { City, Country, State } = require('country-state-city') as typeof Package;
  const countries = new Map<string, CountryCentre>();
  const subdivisions = new Map<string, Map<string, Subdivision>>();
  for (const c of Country.getAllCountries()) {
    const zones = c.timezones ?? [];
    countries.set(c.isoCode, {
      lat: Number(c.latitude),
      lon: Number(c.longitude),
      timezone: LEGAL_TIME[c.isoCode] ?? (zones.length === 1 ? zones[0].zoneName : ''),
    });
    const byName = new Map<string, Subdivision>();
    for (const s of State.getStatesOfCountry(c.isoCode)) {
      const sub = { code: s.isoCode, name: s.name, lat: Number(s.latitude), lon: Number(s.longitude) };
      for (const key of [placeKey(s.name), placeKey(s.name).replace(TAIL, '')])
        if (key && !byName.has(key)) byName.set(key, sub);
    }
    subdivisions.set(c.isoCode, byName);
  }
  const chinaCities = new Map<string, Centre>();
  for (const c of City.getCitiesOfCountry('CN') ?? []) {
    const key = `${c.stateCode}|${placeKey(c.name)}`;
    if (!chinaCities.has(key)) chinaCities.set(key, { lat: Number(c.latitude), lon: Number(c.longitude) });
  }
  const dir = path.dirname(require.resolve('country-state-city/package.json')) + path.sep;
  for (const file of Object.keys(require.cache)) if (file.startsWith(dir)) delete require.cache[file];
  gazetteer = { countries, subdivisions, chinaCities };
  return gazetteer;
}

export function countryCentre(code: string): CountryCentre | undefined {
  return places().countries.get(code);
}

/** A first-level subdivision by its English name (`California`, `Bavaria`, `Tokyo`), case and accents ignored. */
export function subdivision(countryCode: string, name: string): Subdivision | undefined {
  const byName = places().subdivisions.get(countryCode);
  const key = placeKey(name);
  return byName?.get(key) ?? byName?.get(key.replace(TAIL, ''));
}

/** A city of mainland China by province code (`GD`) and pinyin name (`Shenzhen`). */
export function chinaCity(provinceCode: string, pinyinName: string): Centre | undefined {
  return places().chinaCities.get(`${provinceCode}|${placeKey(pinyinName)}`);
}
