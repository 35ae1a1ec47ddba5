/**
 * Random Chinese user profiles that read as real: surnames weighted by frequency, given names that fit the
 * gender, real mobile number segments, a real district with its own postcode (data/postcodes.json), Chinese job
 * titles and company names. Pure: no HTTP framework; the curated lists come in as `UserData`.
 *
 * Randomness is Faker's Mersenne Twister; with a seed it is seeded from (seed, gender), so the same seed gives
 * the same users, and asking for more users only appends (user i never depends on count).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { faker } from '@faker-js/faker/locale/base';
import { pinyin } from 'pinyin-pro';
import { paramError } from '../../errors.js';
import { classifyAddress } from '../shared/ip-address.js';
import { loadPostcodes, shortNames, type PostcodeRow } from '../shared/postcodes.js';

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

/** A list to draw from with weights: cumulative totals, searched by bisection. */
class Weighted<T> {
  private readonly cumulative: number[] = [];
  private readonly total: number;
  constructor(private readonly items: Array<[T, number]>) {
    let sum = 0;
    for (const [, w] of items) this.cumulative.push((sum += w));
    this.total = sum;
  }
  pick(): T {
    const r = faker.number.float({ min: 0, max: this.total });
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return this.items[lo][0];
  }
}

/** A name with its pinyin (lower case, no tones, ü as v), worked out once when the lists are loaded. */
interface Name {
  zh: string;
  py: string;
}

export interface UserData {
  surnames: Weighted<Name>;
  given: Record<Gender, Name[]>;
  places: Weighted<PostcodeRow>;
  phonePrefixes: string[];
  jobs: string[];
  company: { brands: string[]; industries: string[]; forms: Weighted<string> };
  roads: string[];
  estates: { words: string[]; suffixes: string[] };
  emailDomains: Weighted<string>;
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
  return {
    surnames: new Weighted(names.surnames.map(([zh, w]) => [{ zh, py: toPinyin(zh, true) }, w])),
    given: { male: given(names.male), female: given(names.female) },
    places: new Weighted(places.map((r) => [r, placeWeight(r)])),
    phonePrefixes: Object.values(profile.phonePrefixes).flat(),
    jobs: profile.jobs,
    company: {
      brands: profile.company.brands,
      industries: profile.company.industries,
      forms: new Weighted(profile.company.forms),
    },
    roads: profile.roads,
    estates: profile.estates,
    emailDomains: new Weighted(profile.emailDomains),
  };
}

export function loadUserData(): UserData {
  const read = <T>(name: string) =>
    JSON.parse(readFileSync(new URL(`../../../../../data/${name}`, import.meta.url), 'utf8')) as T;
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

const pick = <T>(list: readonly T[]): T => faker.helpers.arrayElement(list);
const toPinyin = (s: string, surname = false) =>
  pinyin(s, { toneType: 'none', type: 'array', v: true, ...(surname ? { surname: 'all' as const } : {}) })
    .join('')
    .toLowerCase();

/** The calendar date in Asia/Shanghai (birthdays are local dates). */
const shanghaiDate = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 10);

function seedOf(seed: string, gender: Gender | undefined): number[] {
  const digest = createHash('sha256')
    .update(`${seed}\u0000${gender ?? 'mixed'}`)
    .digest();
  return [0, 4, 8, 12].map((o) => digest.readUInt32LE(o));
}

/**
 * Generates `count` users. Synchronous by design: Faker's instance is shared, and a seeded call re-seeds it
 * first, so nothing may interleave. Users are drawn one after another from one stream, so user i never depends
 * on `count`: a larger count only appends. Unseeded calls just continue the stream (seeding costs more than
 * drawing a user, and these are fake profiles: unpredictability is not a requirement).
 */
export function generateUsers(data: UserData, opts: GenerateOptions): RandomUser[] {
  if (opts.seed !== undefined) faker.seed(seedOf(opts.seed, opts.gender));
  const ref = opts.seed !== undefined ? SEEDED_REFERENCE : (opts.now ?? new Date());
  const users: RandomUser[] = [];
  for (let i = 0; i < opts.count; i++) {
    users.push(oneUser(data, opts.gender ?? (faker.datatype.boolean() ? 'male' : 'female'), ref, opts.baseUrl));
  }
  return users;
}

function oneUser(data: UserData, gender: Gender, ref: Date, baseUrl: string): RandomUser {
  const id = faker.string.uuid();
  const { zh: surname, py: sp } = data.surnames.pick();
  const { zh: given, py: gp } = pick(data.given[gender]);
  const createdAt = faker.date.between({ from: ref.getTime() - 3 * 365 * 86400_000, to: ref.getTime() - 1 });
  const born = faker.date.birthdate({ mode: 'age', min: 18, max: 60, refDate: createdAt });
  const year = shanghaiDate(born).slice(0, 4);
  const username = pick([
    `${sp}${gp}${faker.number.int({ min: 1, max: 99 })}`,
    `${gp}${sp}`,
    `${sp}_${gp}`,
    `${sp}${gp}${year}`,
    `${sp}${gp.charAt(0)}${year.slice(2)}`,
    `${gp}_${year}`,
  ]);
  const place = data.places.pick();
  return {
    id,
    name: surname + given,
    gender: gender === 'male' ? '男' : '女',
    username,
    phone: pick(data.phonePrefixes) + faker.string.numeric(8),
    email: email(data, username),
    avatar: `${baseUrl}/api/random-avatar/image?seed=${id}`,
    birthday: shanghaiDate(born),
    address: { province: place.province, city: place.city, street: street(data, place), zipCode: place.postcode },
    company: company(data, place),
    job: pick(data.jobs),
    website: website(username, sp, gp),
    ip: publicIpv4(),
    createdAt: createdAt.toISOString(),
  };
}

function email(data: UserData, username: string): string {
  const domain = data.emailDomains.pick();
  // Many QQ Mail addresses are the QQ number itself.
  if (domain === 'qq.com' && faker.datatype.boolean())
    return `${faker.number.int({ min: 10_000_000, max: 3_999_999_999 })}@qq.com`;
  return `${username}@${domain}`;
}

function website(username: string, sp: string, gp: string): string {
  const slug = username.replace(/[._]/g, '-');
  return pick([
    `https://${slug}.github.io`,
    `https://blog.csdn.net/${username}`,
    `https://www.zhihu.com/people/${slug}`,
    `https://space.bilibili.com/${faker.number.int({ min: 10_000_000, max: 999_999_999 })}`,
    `https://www.${sp}${gp}.com`,
    `https://${sp}${gp}.cn`,
  ]);
}

function street(data: UserData, place: PostcodeRow): string {
  const road = `${place.district}${pick(data.roads)}${faker.number.int({ min: 1, max: 399 })}号`;
  if (faker.number.int({ min: 1, max: 10 }) <= 3) return road;
  const estate = pick(data.estates.words) + pick(data.estates.suffixes);
  const floor = faker.number.int({ min: 1, max: 28 });
  const room = `${floor}0${faker.number.int({ min: 1, max: 4 })}`;
  return `${road}${estate}${faker.number.int({ min: 1, max: 30 })}栋${faker.number.int({ min: 1, max: 4 })}单元${room}室`;
}

function company(data: UserData, place: PostcodeRow): string {
  // Companies carry the registering city's name (深圳市…/深圳…); prefectures not called 市 use the province's.
  const area = place.city.endsWith('市') ? place.city : place.province;
  const prefix = faker.datatype.boolean() ? area : (shortNames(area)[0] ?? area);
  return prefix + pick(data.company.brands) + pick(data.company.industries) + data.company.forms.pick();
}

/** A public unicast address: private, loopback, multicast and other reserved blocks are drawn again. */
function publicIpv4(): string {
  for (;;) {
    const ip = faker.internet.ipv4();
    if (classifyAddress(ip).kind === 'public') return ip;
  }
}
