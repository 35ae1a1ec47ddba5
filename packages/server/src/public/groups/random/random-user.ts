/**
 * Random Chinese user profiles that read as real: surnames weighted by frequency, given names that fit the
 * gender, real mobile number segments, a real district with its own postcode (data/postcodes.json), Chinese job
 * titles and company names. Pure: no HTTP framework; the curated lists come in as `UserData`.
 *
 * Randomness is shared/rng.ts, as for the other generators: with a seed, sfc32 seeded from (seed, gender),
 * so the same seed gives the same users, and asking for more users only appends (user i never depends on count);
 * without one, the CSPRNG. Until 2026-11-27 it was Faker's Mersenne Twister, whose helpers cost more than the rest
 * of a user: a seed gives other users since then.
 */
import { readFileSync } from 'node:fs';
import { pinyin } from 'pinyin-pro';
import { paramError } from '../../../errors.js';
import { civilOf, yearsBefore, ymdText } from '../../../engines/calendar/civil-date.js';
import { ipv4Text, publicIpv4Blocks } from '../../../engines/ip/ip-address.js';
import { HEX_OF_BYTE } from '../../shared/hex.js';
import { loadPostcodes, shortNames, type PostcodeRow } from '../../../engines/postcodes/postcodes.js';
import { pickOne, rngFor, Weighted, type Rng } from '../../../shared/rng.js';
import { isPlainAscii } from '../../shared/schemas.js';

export type Gender = 'male' | 'female';

export interface RandomUser {
  id: string;
  name: string;
  gender: '男' | '女';
  username: string;
  phone: string;
  email: string;
  avatar: string;
  birthday: string;
  address: { province: string; city: string; street: string; zipCode: string };
  company: string;
  job: string;
  website: string;
  ip: string;
  createdAt: string;
}

/** A name with its pinyin (lower case, no tones, ü as v), worked out once when the lists are loaded. */
interface Name {
  zh: string;
  py: string;
}

/** A place users live at, with the names its companies are registered under (深圳市…, 深圳…), worked out once. */
interface Place {
  row: PostcodeRow;
  /** The city, or the province where the prefecture is not called 市. */
  area: string;
  /** `area` without its administrative suffix; `area` itself when it has none. */
  areaShort: string;
}

export interface UserData {
  surnames: Weighted<Name>;
  given: Record<Gender, Name[]>;
  places: Weighted<Place>;
  phonePrefixes: string[];
  jobs: string[];
  company: { brands: string[]; industries: string[]; forms: Weighted<string> };
  roads: string[];
  estates: { words: string[]; suffixes: string[] };
  emailDomains: Weighted<string>;
  /** The public IPv4 blocks (ip-address.ts), weighted by size: every public address equally likely. */
  publicIpv4: Weighted<[number, number]>;
}

interface NamesFile {
  surnames: Array<[string, number]>;
  male: string[];
  female: string[];
}

interface ProfileFile {
  phonePrefixes: Record<string, string[]>;
  jobs: string[];
  company: { brands: string[]; industries: string[]; forms: Array<[string, number]> };
  roads: string[];
  estates: { words: string[]; suffixes: string[] };
  emailDomains: Array<[string, number]>;
}

/** Urban districts are where most people live; a county row counts for less (the table has more counties than districts). */
function placeWeight(row: PostcodeRow): number {
  if (row.district.endsWith('区')) return 3;
  if (row.district.endsWith('市')) return 2;
  return 1;
}

/**
 * Builds the draw lists from data/names.json, data/user-profile.json and the postcode table. Places are the
 * county-level rows of cities (and the city row itself for the few cities without counties); counties directly
 * under a province (海南's 定安县…) are left out because they would appear as the "city".
 */
export function buildUserData(names: NamesFile, profile: ProfileFile, postcodes: readonly PostcodeRow[]): UserData {
  const withDistricts = new Set(postcodes.filter((r) => r.district).map((r) => `${r.province}/${r.city}`));
  const places = postcodes.filter(
    (r) => /(?:市|州|盟|地区)$/u.test(r.city) && (r.district ? true : !withDistricts.has(`${r.province}/${r.city}`)),
  );
  const given = (list: string[]) => list.map((zh) => ({ zh, py: toPinyin(zh) }));
  const surnames = names.surnames.map(([zh, w]) => [{ zh, py: toPinyin(zh, true) }, w] as const);
  const male = given(names.male);
  const female = given(names.female);
  const phonePrefixes = Object.values(profile.phonePrefixes).flat();
  // The login name, e-mail, website, phone number and postcode are sent as they are (AsciiText): every table piece
  // they are made of must be plain ASCII, or the server does not start.
  const pieces = [
    ...surnames.map(([s]) => s.py),
    ...[...male, ...female].map((n) => n.py),
    ...phonePrefixes,
    ...profile.emailDomains.map(([d]) => d),
    ...places.map((p) => p.postcode),
  ];
  const bad = pieces.find((p) => !isPlainAscii(p));
  if (bad !== undefined) throw new Error(`random-user: ${JSON.stringify(bad)} in a data table is not plain ASCII`);
  return {
    surnames: new Weighted(surnames),
    given: { male, female },
    places: new Weighted(places.map((row) => [placeOf(row), placeWeight(row)])),
    phonePrefixes,
    jobs: profile.jobs,
    company: {
      brands: profile.company.brands,
      industries: profile.company.industries,
      forms: new Weighted(profile.company.forms),
    },
    roads: profile.roads,
    estates: profile.estates,
    emailDomains: new Weighted(profile.emailDomains),
    publicIpv4: new Weighted(publicIpv4Blocks().map((b) => [b, b[1] - b[0] + 1])),
  };
}

function placeOf(row: PostcodeRow): Place {
  // Companies carry the registering city's name (深圳市…/深圳…); prefectures not called 市 use the province's.
  const area = row.city.endsWith('市') ? row.city : row.province;
  return { row, area, areaShort: shortNames(area)[0] ?? area };
}

export function loadUserData(): UserData {
  const read = <T>(name: string) =>
    JSON.parse(readFileSync(new URL(`../../../../../../data/${name}`, import.meta.url), 'utf8')) as T;
  return buildUserData(read<NamesFile>('names.json'), read<ProfileFile>('user-profile.json'), loadPostcodes());
}

/** `male`, `female` (any case), `男`, `女`; empty or omitted = mixed. Anything else is an error naming `gender`. */
export function parseGender(raw: string | undefined): Gender | undefined {
  const g = raw?.trim().toLowerCase();
  if (!g) return undefined;
  if (g === 'male' || g === '男') return 'male';
  if (g === 'female' || g === '女') return 'female';
  throw paramError('gender', '应为 male、female、男 或 女；不传则男女混合', raw);
}

/** Seeded answers are dated relative to this fixed moment, so they never change; unseeded ones relative to now. */
export const SEEDED_REFERENCE = new Date('2025-01-01T00:00:00.000Z');

export interface GenerateOptions {
  count: number;
  gender?: Gender;
  seed?: string;
  /** Absolute base URL of this service, for the avatar link (no trailing slash). */
  baseUrl: string;
  now?: Date;
}

const toPinyin = (s: string, surname = false) =>
  pinyin(s, { toneType: 'none', type: 'array', v: true, ...(surname ? { surname: 'all' as const } : {}) })
    .join('')
    .toLowerCase();

const DAY = 86400_000;

/**
 * Generates `count` users. Users are drawn one after another from one stream, so user i never depends on `count`:
 * a larger count only appends.
 */
export function generateUsers(data: UserData, opts: GenerateOptions): RandomUser[] {
  const rng = rngFor(opts.seed === undefined ? undefined : `${opts.seed}\u0000${opts.gender ?? 'mixed'}`);
  const ref = opts.seed !== undefined ? SEEDED_REFERENCE : (opts.now ?? new Date());
  const users: RandomUser[] = [];
  for (let i = 0; i < opts.count; i++) {
    users.push(oneUser(rng, data, opts.gender ?? (rng.int(2) === 0 ? 'male' : 'female'), ref, opts.baseUrl));
  }
  return users;
}

function oneUser(rng: Rng, data: UserData, gender: Gender, ref: Date, baseUrl: string): RandomUser {
  const id = uuid(rng);
  const { zh: surname, py: sp } = data.surnames.pick(rng);
  const { zh: given, py: gp } = pickOne(rng, data.given[gender]);
  // Within the three years before ref (to the millisecond, ref itself excluded).
  const createdAt = ref.getTime() - 3 * 365 * DAY + rng.int(3 * 365) * DAY + rng.int(DAY);
  // Aged 18–60 on the day of createdAt in Asia/Shanghai (birthdays are local dates).
  const c = civilOf(Math.floor((createdAt + 8 * 3600_000) / DAY));
  const from = yearsBefore(c.y, c.m, c.d, 61) + 1;
  const born = civilOf(from + rng.int(yearsBefore(c.y, c.m, c.d, 18) - from + 1));
  const username = usernameOf(rng, sp, gp, String(born.y));
  const { row: place, area, areaShort } = data.places.pick(rng);
  return {
    id,
    name: surname + given,
    gender: gender === 'male' ? '男' : '女',
    username,
    phone: pickOne(rng, data.phonePrefixes) + digits(rng, 8),
    email: email(rng, data, username),
    avatar: `${baseUrl}/api/random-avatar/image?seed=${id}`,
    birthday: ymdText(born),
    address: { province: place.province, city: place.city, street: street(rng, data, place), zipCode: place.postcode },
    company:
      (rng.int(2) === 0 ? area : areaShort) +
      pickOne(rng, data.company.brands) +
      pickOne(rng, data.company.industries) +
      data.company.forms.pick(rng),
    job: pickOne(rng, data.jobs),
    website: website(rng, username, sp, gp),
    ip: publicIpv4(rng, data),
    createdAt: new Date(createdAt).toISOString(),
  };
}

const hex32 = (w: number) =>
  HEX_OF_BYTE[w >>> 24] + HEX_OF_BYTE[(w >>> 16) & 255] + HEX_OF_BYTE[(w >>> 8) & 255] + HEX_OF_BYTE[w & 255];
const word = (rng: Rng) => rng.int(2 ** 32);

/** A version 4 UUID (RFC 9562: version nibble 4, variant bits 10) from four random words. */
function uuid(rng: Rng): string {
  const a = word(rng);
  const b = word(rng);
  const c = word(rng);
  const d = word(rng);
  return `${hex32(a)}-${HEX_OF_BYTE[b >>> 24]}${HEX_OF_BYTE[(b >>> 16) & 255]}-${HEX_OF_BYTE[0x40 | ((b >>> 8) & 15)]}${HEX_OF_BYTE[b & 255]}-${HEX_OF_BYTE[0x80 | ((c >>> 24) & 63)]}${HEX_OF_BYTE[(c >>> 16) & 255]}-${HEX_OF_BYTE[(c >>> 8) & 255]}${HEX_OF_BYTE[c & 255]}${hex32(d)}`;
}

/** `n` decimal digits (n ≤ 9), leading zeros included. */
const digits = (rng: Rng, n: number) => String(rng.int(10 ** n)).padStart(n, '0');

/** A login name from the pinyin of the name, sometimes with a number or the year of birth. */
function usernameOf(rng: Rng, sp: string, gp: string, year: string): string {
  switch (rng.int(6)) {
    case 0:
      return `${sp}${gp}${1 + rng.int(99)}`;
    case 1:
      return `${gp}${sp}`;
    case 2:
      return `${sp}_${gp}`;
    case 3:
      return `${sp}${gp}${year}`;
    case 4:
      return `${sp}${gp.charAt(0)}${year.slice(2)}`;
    default:
      return `${gp}_${year}`;
  }
}

function email(rng: Rng, data: UserData, username: string): string {
  const domain = data.emailDomains.pick(rng);
  // Many QQ Mail addresses are the QQ number itself.
  if (domain === 'qq.com' && rng.int(2) === 0) return `${10_000_000 + rng.int(3_990_000_000)}@qq.com`;
  return `${username}@${domain}`;
}

function website(rng: Rng, username: string, sp: string, gp: string): string {
  switch (rng.int(6)) {
    case 0:
      return `https://${slugOf(username)}.github.io`;
    case 1:
      return `https://blog.csdn.net/${username}`;
    case 2:
      return `https://www.zhihu.com/people/${slugOf(username)}`;
    case 3:
      return `https://space.bilibili.com/${10_000_000 + rng.int(990_000_000)}`;
    case 4:
      return `https://www.${sp}${gp}.com`;
    default:
      return `https://${sp}${gp}.cn`;
  }
}

const slugOf = (username: string) => username.replace(/[._]/g, '-');

function street(rng: Rng, data: UserData, place: PostcodeRow): string {
  const road = `${place.district}${pickOne(rng, data.roads)}${1 + rng.int(399)}号`;
  if (rng.int(10) < 3) return road;
  const estate = pickOne(rng, data.estates.words) + pickOne(rng, data.estates.suffixes);
  const room = `${1 + rng.int(28)}0${1 + rng.int(4)}`;
  return `${road}${estate}${1 + rng.int(30)}栋${1 + rng.int(4)}单元${room}室`;
}

/** A public unicast address: a public block by its size, then an address in it (ip-address.ts publicIpv4Blocks). */
function publicIpv4(rng: Rng, data: UserData): string {
  const [first, last] = data.publicIpv4.pick(rng);
  return ipv4Text(first + rng.int(last - first + 1));
}
