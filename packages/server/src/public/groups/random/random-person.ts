/**
 * A complete fictional Chinese identity whose parts agree with each other: the ID number encodes the birthday, the
 * sex and the county of the address (whose postcode is real), zodiac and constellation follow the birthday, the
 * ethnic group is drawn nationally (汉族 ≈ 91%) and then housed where that group lives, education follows the birth
 * cohort and the occupation the education and age. Pure: no HTTP framework; the lists come in as `PersonData`.
 */
import { readFileSync } from 'node:fs';
import { pinyin } from 'pinyin-pro';
import { composeIdFacts, idRegions, regionInfo, type BirthFacts, type RegionInfo } from '../../shared/id-card.js';
import { loadPostcodes, type PostcodeRow } from '../../../engines/postcodes/postcodes.js';
import { randomBirthDay, randomSequence, type AgeWindow } from './random-id-card.js';
import type { Gender } from './random-user.js';
import { perObject } from '../../../shared/memo.js';
import { pickOne, Weighted, type Rng } from '../../../shared/rng.js';

type WeightList<T> = (readonly [T, number])[];

/** A name part with its pinyin (with tone marks), worked out once when the lists are loaded. */
interface NamePart {
  zh: string;
  py: string;
}

export interface PersonData {
  surnames: Weighted<NamePart>;
  given: Record<Gender, NamePart[]>;
  /** [operator, three-digit segment] */
  phones: [string, string][];
  roads: string[];
  estates: { words: string[]; suffixes: string[] };
  jobs: string[];
  /** Addresses a person can live at: county-level rows of the postcode table whose code is a current ID region. */
  places: Map<string, PostcodeRow[]>;
  ethnicGroups: Weighted<EthnicGroup>;
}

interface EthnicGroup {
  name: string;
  provinces: WeightList<string>;
}

interface EthnicFile {
  provinces: Record<string, [population: number, minorityPercent: number]>;
  groups: [name: string, population: number, provinces: Record<string, number>][];
}

export function loadPersonData(): PersonData {
  const read = <T>(name: string) =>
    JSON.parse(readFileSync(new URL(`../../../../../../data/${name}`, import.meta.url), 'utf8')) as T;
  // Names, phone segments, streets and jobs are random-user's curated lists (data/README.md); only the census figures are ours.
  const names = read<{ surnames: [string, number][]; male: string[]; female: string[] }>('names.json');
  const profile = read<{
    phonePrefixes: Record<string, string[]>;
    jobs: string[];
    roads: string[];
    estates: { words: string[]; suffixes: string[] };
  }>('user-profile.json');
  const ethnic = read<EthnicFile>('ethnic-groups.json');

  const regions = idRegions();
  const places = new Map<string, PostcodeRow[]>();
  for (const row of loadPostcodes()) {
    const r = regions.get(row.code);
    if (!r || r.historical || /7\d$/u.test(row.code)) continue; // prefecture rows, and development zones (not GB/T 2260 counties)
    const p = row.code.slice(0, 2);
    const list = places.get(p) ?? [];
    if (list.length === 0) places.set(p, list);
    list.push(row);
  }
  const han = Object.entries(ethnic.provinces).map(
    ([code, [pop, minority]]) => [code, pop * (1 - minority / 100)] as const,
  );
  const groups: WeightList<EthnicGroup> = [
    [{ name: '汉族', provinces: han }, han.reduce((sum, [, w]) => sum + w, 0)],
    ...ethnic.groups.map(([name, pop, provinces]) => [{ name, provinces: Object.entries(provinces) }, pop] as const),
  ];
  // A surname is read as one (单 shàn, 曾 zēng); a given name as ordinary words (华 huá, 燕 yàn, 乐 lè): reading the
  // whole name in pinyin-pro's surname mode read every character that can be a surname as one (王建华 → huà).
  const given = (list: string[]) => list.map((zh) => ({ zh, py: pinyin(zh, { toneType: 'symbol' }) }));
  return {
    surnames: new Weighted(
      names.surnames.map(([zh, w]) => [{ zh, py: pinyin(zh, { toneType: 'symbol', surname: 'all' }) }, w]),
    ),
    given: { male: given(names.male), female: given(names.female) },
    phones: Object.entries(profile.phonePrefixes).flatMap(([operator, prefixes]) =>
      prefixes.map((p) => [operator, p] as [string, string]),
    ),
    roads: profile.roads,
    estates: profile.estates,
    jobs: profile.jobs,
    places,
    ethnicGroups: new Weighted(groups),
  };
}

export interface Person extends BirthFacts {
  name: string;
  namePinyin: string;
  gender: '男' | '女';
  ethnicity: string;
  idCard: string;
  phone: string;
  phoneOperator: string;
  address: {
    province: string;
    city: string;
    district: string;
    street: string;
    postcode: string;
    regionCode: string;
    full: string;
  };
  height: number;
  weight: number;
  bmi: number;
  bloodType: 'O' | 'A' | 'B' | 'AB';
  education: string;
  occupation: string;
}

/** Standard normal draw (Box–Muller). */
function normal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Where a member of `group` lives: a province it is common in, then a county, favouring its own autonomous areas. */
/** A row of the postcode table with what every person living there shares: its ID region and its joined name. */
interface Place {
  row: PostcodeRow;
  region: RegionInfo;
  /** Province, city and district joined without repeats, e.g. `北京市东城区`. */
  area: string;
}

function placeFor(rng: Rng, data: PersonData, group: EthnicGroup): Place {
  // Both weighted lists are worked out once per data set, group and province, not on every draw.
  const provinces = groupProvinces(
    data,
    group.name,
    () => new Weighted(group.provinces.filter(([p]) => data.places.has(p))),
  );
  const province = provinces.pick(rng);
  return groupRows(
    data,
    `${group.name}|${province}`,
    () => new Weighted(weightedRows(data.places.get(province)!, group.name)),
  ).pick(rng);
}

const groupProvinces = perObject<PersonData, Weighted<string>>();
const groupRows = perObject<PersonData, Weighted<Place>>();

/** A province's places, weighted for an ethnic group. */
function weightedRows(rows: readonly PostcodeRow[], groupName: string): WeightList<Place> {
  const own = new RegExp(`${groupName.replace(/族$/u, '')}(?:族|自治)`, 'u');
  return rows.map((row) => {
    // Urban districts hold most people; a county counts less (there are more counties than districts).
    let w = row.district.endsWith('区') ? 3 : row.district.endsWith('市') || !row.district ? 2 : 1;
    if (groupName !== '汉族' && own.test(row.city + row.district)) w *= 10;
    const area = [row.province, row.city, row.district].filter((p, i, all) => p && p !== all[i - 1]).join('');
    return [{ row, region: regionInfo(row.code)!, area }, w] as const;
  });
}

const BLOOD_TYPES = new Weighted<Person['bloodType']>([
  ['O', 34],
  ['A', 28],
  ['B', 29],
  ['AB', 9],
]);

/** Highest education completed, by birth cohort (older cohorts had far less schooling). */
const EDUCATION_60 = new Weighted([
  ['未上过学', 10],
  ['小学', 38],
  ['初中', 32],
  ['高中', 13],
  ['中专', 3],
  ['大专', 2.5],
  ['本科', 1.5],
]);
const EDUCATION_40 = new Weighted([
  ['未上过学', 2],
  ['小学', 20],
  ['初中', 42],
  ['高中', 15],
  ['中专', 6],
  ['大专', 8],
  ['本科', 6.5],
  ['硕士研究生', 0.6],
]);
const EDUCATION_YOUNG: WeightList<string> = [
  ['小学', 4],
  ['初中', 24],
  ['高中', 14],
  ['中专', 8],
  ['大专', 21],
  ['本科', 24],
  ['硕士研究生', 4],
  ['博士研究生', 0.5],
];
/** Degrees take time: nobody under 21 holds a bachelor's, under 24 a master's, under 27 a doctorate. */
const MIN_AGE: Record<string, number> = { 大专: 20, 本科: 21, 硕士研究生: 24, 博士研究生: 27 };
/** The young cohort's list for each age under 40, filtered once. */
const educationYoung = Array.from(
  { length: 40 },
  (_, age) => new Weighted(EDUCATION_YOUNG.filter(([e]) => age >= (MIN_AGE[e] ?? 0))),
);

function educationFor(rng: Rng, age: number): string {
  if (age >= 60) return EDUCATION_60.pick(rng);
  if (age >= 40) return EDUCATION_40.pick(rng);
  return educationYoung[age].pick(rng);
}

const DEGREE_JOBS =
  /工程师|分析师|律师|审计师|讲师|医生|研究员|咨询师|中学教师|理财经理|财务经理|总监|产品经理|建筑设计师|翻译/u;
const COLLEGE_JOBS =
  /设计师|项目经理|专员|会计|护士|药剂师|教师|记者|编辑|运营|社会工作者|银行柜员|客户经理|品牌策划|行政主管|公务员|销售经理/u;
const COLLEGE = new Set(['大专', '本科', '硕士研究生', '博士研究生']);
const DEGREE = new Set(['本科', '硕士研究生', '博士研究生']);

/** Education and occupation together: about half of those aged 18–22 are still studying. */
function careerFor(rng: Rng, data: PersonData, age: number, gender: Gender): { education: string; occupation: string } {
  if (age <= 22 && rng.next() < 0.5)
    return age >= 19 ? { education: '高中', occupation: '大学生' } : { education: '初中', occupation: '高中生' };
  const education = educationFor(rng, age);
  if (age >= (gender === 'male' ? 60 : 55)) return { education, occupation: '退休' };
  return { education, occupation: pickOne(rng, jobsFor(data.jobs, education)) };
}

/** The jobs open to an education level, in list order: worked out once per list and level, not per person. */
const jobsByEducation = perObject<readonly string[], string[]>();
const jobsFor = (jobs: readonly string[], education: string) =>
  jobsByEducation(jobs, education, () =>
    jobs.filter((j) =>
      DEGREE_JOBS.test(j) ? DEGREE.has(education) : COLLEGE_JOBS.test(j) ? COLLEGE.has(education) : true,
    ),
  );

export interface PersonOptions {
  gender?: Gender;
  /** Today in Asia/Shanghai (ages, and no birthday after it). */
  today: string;
  /** How the birthday keeps the age 18–70 today: `year` for seeded answers (see AgeWindow). */
  ageWindow: AgeWindow;
}

export function randomPerson(rng: Rng, data: PersonData, opts: PersonOptions): Person {
  const gender = opts.gender ?? (rng.int(2) === 0 ? 'male' : 'female');
  const surname = data.surnames.pick(rng);
  const given = pickOne(rng, data.given[gender]);
  const group = data.ethnicGroups.pick(rng);
  const { row: place, region, area } = placeFor(rng, data, group);
  const day = randomBirthDay(rng, opts.today, undefined, opts.ageWindow);
  const card = composeIdFacts(region, day, randomSequence(rng, gender), opts.today);

  const [operator, prefix] = pickOne(rng, data.phones);
  let phone = prefix;
  while (phone.length < 11) phone += rng.int(10);

  const road = `${place.district}${pickOne(rng, data.roads)}${1 + rng.int(399)}号`;
  const street =
    rng.next() < 0.25
      ? road
      : `${road}${pickOne(rng, data.estates.words)}${pickOne(rng, data.estates.suffixes)}${1 + rng.int(30)}栋${1 + rng.int(4)}单元${1 + rng.int(28)}0${1 + rng.int(4)}室`;

  // 2020 adult means (national nutrition and chronic disease report): men 169.7 cm, women 158.0 cm; older cohorts are shorter.
  const male = gender === 'male';
  const height = Math.round(
    clamp(
      (male ? 169.7 : 158) - Math.max(0, card.age - 45) * 0.08 + normal(rng) * (male ? 6.2 : 5.6),
      male ? 150 : 140,
      male ? 200 : 185,
    ),
  );
  const weight = Math.round(clamp((male ? 24 : 23) + normal(rng) * 3.2, 16.5, 38) * (height / 100) ** 2 * 10) / 10;
  const bmi = Math.round((weight / (height / 100) ** 2) * 10) / 10;
  const bloodType = BLOOD_TYPES.pick(rng);
  const { education, occupation } = careerFor(rng, data, card.age, gender);

  // One literal, in the schema's order (no spreads: V8 copies them slowly, and this runs for every person).
  return {
    name: surname.zh + given.zh,
    namePinyin: `${surname.py} ${given.py}`,
    gender: card.gender,
    birthday: card.birthday,
    age: card.age,
    zodiac: card.zodiac,
    constellation: card.constellation,
    lunarBirthday: card.lunarBirthday,
    ethnicity: group.name,
    idCard: card.id,
    phone,
    phoneOperator: operator,
    address: {
      province: place.province,
      city: place.city,
      district: place.district,
      street,
      postcode: place.postcode,
      regionCode: place.code,
      full: area + street.slice(place.district.length),
    },
    height,
    weight,
    bmi,
    bloodType,
    education,
    occupation,
  };
}
