/**
 * Chinese postal codes (邮政编码) down to county level.
 *
 * Pure lookup module: no HTTP framework here. The table ships as
 * `data/postcodes.json` at the repository root (see `data/README.md`).
 */
import { readFileSync } from 'node:fs';

export interface PostcodeRow {
  /** Six-digit administrative division code (GB/T 2260 / NBS 2023), e.g. `440305`; prefecture rows end in `00`. */
  code: string;
  /** Full official name of the provincial-level region, e.g. `广东省`. */
  province: string;
  /** Prefecture-level city (or the municipality itself, or a directly administered county-level city such as `济源市`). */
  city: string;
  /** County-level division, e.g. `南山区`; empty on the row for the city itself. */
  district: string;
  /** Six-digit postal code, e.g. `518000`. */
  postcode: string;
}

export interface PostcodeSearchResult {
  /** At most `limit` rows, best match first. */
  items: PostcodeRow[];
  /** How many rows matched in all, before `limit` was applied. */
  total: number;
}

/**
 * Read the shipped table. The path is resolved relative to this module, so it
 * works both from `packages/server/src/engines/postcodes/` (tsx, vitest) and from the
 * compiled `packages/server/dist/engines/postcodes/`. Four route files use it: while
 * one of them still holds the array, the others get the same one instead of
 * parsing the file again (held weakly, so it goes once nobody keeps it).
 * Shared, therefore: do not mutate it.
 */
export function loadPostcodes(): PostcodeRow[] {
  let rows = loaded?.deref();
  if (!rows) {
    const url = new URL('../../../../../data/postcodes.json', import.meta.url);
    rows = JSON.parse(readFileSync(url, 'utf8')) as PostcodeRow[];
    loaded = new WeakRef(rows);
  }
  return rows;
}
let loaded: WeakRef<PostcodeRow[]> | undefined;

/** Ethnic groups named in autonomous areas, written with 族 (`延边朝鲜族自治州`, `梅里斯达斡尔族区`). */
const ETHNIC =
  '蒙古|回|藏|维吾尔|苗|彝|壮|布依|朝鲜|满|侗|瑶|白|土家|哈尼|哈萨克|傣|黎|傈僳|佤|畲|拉祜|水|东乡|纳西|景颇|柯尔克孜|土|达斡尔|仫佬|羌|布朗|撒拉|毛南|仡佬|锡伯|普米|塔吉克|怒|鄂温克|保安|裕固|独龙|鄂伦春|各';
/** An ethnic name at the end: with 族, or one of the names Xinjiang writes without it (`木垒哈萨克自治县`). */
const ETHNIC_TAIL = new RegExp(`(?:(?:${ETHNIC})族|维吾尔|哈萨克|锡伯|蒙古|柯尔克孜|塔吉克)$`, 'u');
const AUTONOMOUS = /自治(?:区|州|县|旗)$/u;
/** Generic administrative suffixes, longest first. */
const ADMIN_SUFFIX = /(?:特别行政区|行政委员会|管委会|管理区|地区|林区|特区|新区|矿区|省|市|区|县|旗|盟)$/u;

/**
 * The short form of an official name, if it has one: `深圳市` → `深圳`,
 * `延边朝鲜族自治州` → `延边`, `广西壮族自治区` → `广西`, `内蒙古自治区` → `内蒙古`,
 * `梅里斯达斡尔族区` → `梅里斯`. A form shorter than two characters is never
 * produced (`城区` and `赵县` have none).
 */
export function shortNames(name: string): string[] {
  let s = name;
  const strip = (re: RegExp): boolean => {
    const next = s.replace(re, '');
    if (next === s || [...next].length < 2) return false;
    s = next;
    return true;
  };
  if (strip(AUTONOMOUS) || strip(ADMIN_SUFFIX)) {
    while (strip(ETHNIC_TAIL)) {
      /* 大通回族土族 → 大通 */
    }
  }
  return s === name ? [] : [s];
}

/** One row's names, prepared once per table. */
interface Prepared {
  row: PostcodeRow;
  index: number;
  /** The row's own name: the district, or the city on a city row. */
  own: string[];
  /** The names the row sits in: the province, and the city on a district row. */
  parents: string[][];
}

interface Index {
  prepared: Prepared[];
  /** Every full and short province / city / district name, longest first (for splitting `深圳南山`). */
  names: string[];
  known: Set<string>;
}

const cache = new WeakMap<PostcodeRow[], Index>();

function forms(name: string): string[] {
  return [name, ...shortNames(name)];
}

function prepare(rows: PostcodeRow[]): Index {
  const hit = cache.get(rows);
  if (hit) return hit;
  const names = new Set<string>();
  const prepared = rows.map((row, index) => {
    const own = forms(row.district || row.city);
    const parents = row.district ? [forms(row.province), forms(row.city)] : [forms(row.province)];
    for (const n of own) names.add(n);
    for (const p of parents) for (const n of p) names.add(n);
    return { row, index, own, parents };
  });
  const idx = { prepared, names: [...names].sort((a, b) => b.length - a.length), known: names };
  cache.set(rows, idx);
  return idx;
}

/** Lower is better; `undefined` when the part does not match the row. */
function rankPart(p: Prepared, part: string): number | undefined {
  if (p.own.includes(part)) return 0; // 深圳 → 深圳市 itself
  if (p.parents.some((f) => f.includes(part))) return 1; // 深圳 → the districts of 深圳市
  if (p.own[0].startsWith(part)) return 2;
  if (p.own[0].includes(part)) return 3;
  if (p.parents.some((f) => f[0].includes(part))) return 4;
  return undefined;
}

function matchAll(idx: Index, parts: string[]): { p: Prepared; score: number }[] {
  const out: { p: Prepared; score: number }[] = [];
  for (const p of idx.prepared) {
    let score = 0;
    let ok = true;
    for (const part of parts) {
      const r = rankPart(p, part);
      if (r === undefined) {
        ok = false;
        break;
      }
      score += r;
    }
    if (ok) out.push({ p, score });
  }
  return out;
}

/**
 * Split a run-together place name into known names: `广东深圳南山` →
 * `广东`, `深圳`, `南山`. Takes the longest known name at the front each time;
 * returns undefined when the front matches no known name or nothing would be split.
 */
function segment(idx: Index, text: string): string[] | undefined {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > 0 && parts.length < 4 && !idx.known.has(rest)) {
    const name = idx.names.find((n) => n.length < rest.length && rest.startsWith(n));
    if (!name) break;
    parts.push(name);
    rest = rest.slice(name.length);
  }
  if (parts.length === 0 || rest.length === 0) return undefined;
  parts.push(rest);
  return parts;
}

/** Full-width digits and spaces, as typed with a Chinese input method, become ASCII. */
function normalise(keyword: string): string {
  return keyword
    .replace(/[０-９]/gu, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/\u3000/gu, ' ')
    .trim();
}

/**
 * Search the postcode table; the input array is never modified.
 *
 * Matching rules:
 * 1. The keyword is trimmed (full-width digits and spaces count as ASCII).
 *    Empty: nothing (`total` 0).
 * 2. One to six digits: rows whose postcode starts with them, in postcode
 *    order — `518000` is an exact postcode, `5180` every postcode starting
 *    5180. Seven or more digits match nothing.
 * 3. Otherwise place names. The keyword is split on whitespace into parts and
 *    every part must match the row's province, city or district (`广东 深圳`,
 *    `深圳 南山`). A part matches a name in full, or without its
 *    administrative suffix (`深圳` = `深圳市`, `延边` = `延边朝鲜族自治州`,
 *    `广西` = `广西壮族自治区`), or as a substring of the full name.
 *    Best matches first: the row whose own name (the district, or the city on a
 *    city row) equals the part (`深圳` → 深圳市 itself), then rows inside a
 *    province or city of that name (the districts of 深圳市), then rows whose
 *    own name starts with the part, then contains it, then whose province or
 *    city contains it. Several parts add up; ties keep the table order
 *    (GB/T 2260 order, each city just before its districts).
 * 4. If rule 3 finds nothing, a part written without spaces is split into the
 *    known names it starts with and tried again: `深圳南山`, `广东省深圳市南山区`.
 *
 * `limit` caps `items` (negative counts as 0); `total` is the number of matches
 * before the cap.
 *
 * The prepared name index is cached per `rows` array (WeakMap), so pass the same
 * array from `loadPostcodes()` each time and do not mutate it.
 */
export function searchPostcodes(rows: PostcodeRow[], keyword: string, limit: number): PostcodeSearchResult {
  const max = Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
  const kw = normalise(keyword ?? '');
  if (kw === '') return { items: [], total: 0 };

  if (/^\d+$/u.test(kw)) {
    if (kw.length > 6) return { items: [], total: 0 };
    const found = rows
      .map((row, index) => ({ row, index }))
      .filter(({ row }) => row.postcode.startsWith(kw))
      .sort((a, b) => (a.row.postcode < b.row.postcode ? -1 : a.row.postcode > b.row.postcode ? 1 : a.index - b.index));
    return { items: found.slice(0, max).map((f) => f.row), total: found.length };
  }

  const idx = prepare(rows);
  const parts = kw.split(/\s+/u);
  let found = matchAll(idx, parts);
  if (found.length === 0) {
    const split = parts.flatMap((part) => segment(idx, part) ?? [part]);
    if (split.length > parts.length) found = matchAll(idx, split);
  }
  found.sort((a, b) => a.score - b.score || a.p.index - b.p.index);
  return { items: found.slice(0, max).map((f) => f.p.row), total: found.length };
}
