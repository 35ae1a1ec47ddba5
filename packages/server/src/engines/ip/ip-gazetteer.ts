/**
 * Places by name, for ip-region: the centre of a country, a first-level subdivision's ISO code, and a Chinese city's
 * coordinates — from `data/ip-gazetteer.json`, what ip-region needs of the npm package
 * `country-state-city` (ODbL data from the countries-states-cities database), extracted by
 * `scripts/build-ip-gazetteer.ts` and read once. ip-region uses it when the IP databases name a place but give no
 * coordinates of their own for it (or give another place's), so that coordinates and names come from one place.
 *
 * Pure module: no HTTP framework here.
 */
import { readFileSync } from 'node:fs';
import tzAt from '@photostructure/tz-lookup';

export interface Centre {
  lat: number;
  lon: number;
}

export interface CountryCentre extends Centre {
  /** The country's time zone at its centre: its only one (`Asia/Tokyo`), else the one at that point (timeZoneAt). */
  timezone: string;
  /** The tz database zones the country spans (empty when the gazetteer lists none). */
  zones: readonly string[];
}

export interface Subdivision {
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

/** The shipped file: the package's values, unchanged (scripts/build-ip-gazetteer.ts). */
export interface GazetteerData {
  /** The package and version the file was built from. */
  source: string;
  /** ISO code, centre latitude and longitude, the tz database zones the package lists. */
  countries: Array<[iso: string, lat: number, lon: number, zones: string[]]>;
  /** Country ISO code, the subdivision's ISO 3166-2 code without the country, English name. */
  subdivisions: Array<[country: string, code: string, name: string]>;
  /** Province code, pinyin name, coordinates. */
  chinaCities: Array<[province: string, name: string, lat: number, lon: number]>;
}

interface Gazetteer {
  countries: Map<string, CountryCentre>;
  /** Per country, its first-level subdivisions by name key, with and without a descriptive tail. */
  subdivisions: Map<string, Map<string, Subdivision>>;
  /** Mainland Chinese cities by `<province code>|<name key>`. */
  chinaCities: Map<string, Centre>;
}

let gazetteer: Gazetteer | undefined;

/**
 * The lookup maps, built from the shipped file at the first lookup that needs one (an instance that never answers
 * ip-region never reads it). Importing `country-state-city` itself at run time held the whole world's cities in
 * memory (~60 MB) until a collection, for these few MB.
 */
function places(): Gazetteer {
  if (gazetteer) return gazetteer;
  const url = new URL('../../../../../data/ip-gazetteer.json', import.meta.url);
  const data = JSON.parse(readFileSync(url, 'utf8')) as GazetteerData;
  const countries = new Map<string, CountryCentre>();
  const subdivisions = new Map<string, Map<string, Subdivision>>();
  for (const [iso, lat, lon, zones] of data.countries) {
    countries.set(iso, { lat, lon, zones, timezone: zoneAt(iso, zones, lat, lon) });
    subdivisions.set(iso, new Map());
  }
  for (const [country, code, name] of data.subdivisions) {
    const byName = subdivisions.get(country)!;
    const sub = { code, name };
    for (const key of [placeKey(name), placeKey(name).replace(TAIL, '')])
      if (key && !byName.has(key)) byName.set(key, sub);
  }
  const chinaCities = new Map<string, Centre>();
  for (const [province, name, lat, lon] of data.chinaCities) {
    const key = `${province}|${placeKey(name)}`;
    if (!chinaCities.has(key)) chinaCities.set(key, { lat, lon });
  }
  gazetteer = { countries, subdivisions, chinaCities };
  return gazetteer;
}

/**
 * The IANA zone of a point in a country: the country's legal time or only zone; for a country with several, the zone
 * the point lies in (offline polygons of @photostructure/tz-lookup, as ip-api and MaxMind answer: 8.8.8.8's point
 * in Kansas is America/Chicago). A point at sea gets an `Etc/GMT±n` zone from the polygons; a country's own first
 * zone is the better answer then.
 */
function zoneAt(countryCode: string, zones: readonly string[], lat: number, lon: number): string {
  const legal = LEGAL_TIME[countryCode] ?? (zones.length === 1 ? zones[0] : undefined);
  if (legal) return legal;
  const here = tzAt(lat, lon);
  return here.startsWith('Etc/') && zones.length ? zones[0] : here;
}

/** The IANA zone at a point of the country `countryCode` (ISO alpha-2); never empty. */
export function timeZoneAt(countryCode: string, lat: number, lon: number): string {
  return zoneAt(countryCode, countryCentre(countryCode)?.zones ?? [], lat, lon);
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
