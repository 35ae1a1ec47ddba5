/**
 * Places by name, for ip-region: the centre of a country, a first-level subdivision's ISO code and centre, and a
 * Chinese city's coordinates — from the npm package `country-state-city` (ODbL data from the countries-states-cities
 * database), read once. ip-region uses it when the IP databases name a place but give no coordinates of their own
 * for it (or give another place's), so that coordinates and names come from one place.
 *
 * Pure module: no HTTP framework here.
 */
import { City, Country, State } from 'country-state-city';

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

const countries = new Map<string, CountryCentre | undefined>();

export function countryCentre(code: string): CountryCentre | undefined {
  if (!countries.has(code)) {
    const c = Country.getCountryByCode(code);
    const zones = c?.timezones ?? [];
    countries.set(
      code,
      c
        ? {
            lat: Number(c.latitude),
            lon: Number(c.longitude),
            timezone: LEGAL_TIME[code] ?? (zones.length === 1 ? zones[0].zoneName : ''),
          }
        : undefined,
    );
  }
  return countries.get(code);
}

/** Descriptive tails GeoLite2 and others add to subdivision names. */
const TAIL = /(province|prefecture|state|region|county|governorate|oblast|autonomousregion)$/u;

const subdivisions = new Map<string, Map<string, Subdivision>>();

/** A first-level subdivision by its English name (`California`, `Bavaria`, `Tokyo`), case and accents ignored. */
export function subdivision(countryCode: string, name: string): Subdivision | undefined {
  let byName = subdivisions.get(countryCode);
  if (!byName) {
    byName = new Map();
    for (const s of State.getStatesOfCountry(countryCode)) {
      const sub = { code: s.isoCode, name: s.name, lat: Number(s.latitude), lon: Number(s.longitude) };
      for (const key of [placeKey(s.name), placeKey(s.name).replace(TAIL, '')])
        if (key && !byName.has(key)) byName.set(key, sub);
    }
    subdivisions.set(countryCode, byName);
  }
  const key = placeKey(name);
  return byName.get(key) ?? byName.get(key.replace(TAIL, ''));
}

let chinaCities: Map<string, Centre> | undefined;

/** A city of mainland China by province code (`GD`) and pinyin name (`Shenzhen`). */
export function chinaCity(provinceCode: string, pinyinName: string): Centre | undefined {
  if (!chinaCities) {
    chinaCities = new Map();
    for (const c of City.getCitiesOfCountry('CN') ?? []) {
      const key = `${c.stateCode}|${placeKey(c.name)}`;
      if (!chinaCities.has(key)) chinaCities.set(key, { lat: Number(c.latitude), lon: Number(c.longitude) });
    }
  }
  return chinaCities.get(`${provinceCode}|${placeKey(pinyinName)}`);
}
