/**
 * Chinese vehicle licence-plate issuing prefixes (机动车号牌发牌机关代号).
 *
 * Pure lookup module: no HTTP framework here. The table ships as
 * `data/license-plates.json` at the repository root (see `data/README.md`).
 */
import { readFileSync } from 'node:fs';
import { classifyPlate, MARKERS } from './plate-types.js';

export interface PlateRow {
  /** Full official name of the provincial-level region, e.g. `广东省`. */
  province: string;
  /** City / prefecture the prefix belongs to, or what the prefix is for when it is not a single city. */
  city: string;
  /** One-character province abbreviation, e.g. `粤`. */
  code: string;
  /** Abbreviation plus issuing-authority letter, e.g. `粤B`. */
  prefix: string;
}

/** A row of the answer: a table row, with the plate's kind when the keyword was a whole plate or a plate marker. */
export interface PlateAnswer extends PlateRow {
  /** 号牌种类, e.g. `新能源小型汽车（纯电动）`, `教练汽车`, `使馆汽车`. */
  type?: string;
  /** What the plate's layout means, in Chinese. */
  note?: string;
}

/**
 * Read the shipped table. The path is resolved relative to this module, so it
 * works both from `packages/server/src/public/groups/life/` (tsx, vitest) and from the
 * compiled `packages/server/dist/public/groups/life/`. Reads the file on every call:
 * callers that serve requests should load once and keep the array.
 */
export function loadPlates(): PlateRow[] {
  const url = new URL('../../../../../../data/license-plates.json', import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as PlateRow[];
}

/** Administrative suffixes dropped from a keyword when the keyword as typed matches nothing. */
const SUFFIX = /(?:维吾尔自治区|壮族自治区|回族自治区|特别行政区|自治区|自治州|自治县|地区|林区|新区|盟|省|市|区|县)$/u;

/** Separators people type inside a plate: `粤 B`, `粤·B`, `粤-B12345`. */
const PLATE_SEPARATORS = /[\s·•・.-]/gu;

/** `粤B`, or something that starts like a plate number (a layout classifyPlate() does not know still finds its prefix). */
const PLATE_LIKE = /^(\p{Script=Han})([A-Za-z])(?:[A-Za-z0-9]{4,6}\p{Script=Han}{0,2})?$/u;

function stripSuffix(name: string): string {
  const stripped = name.replace(SUFFIX, '');
  return stripped.length > 0 ? stripped : name;
}

function matchesName(row: PlateRow, keyword: string): boolean {
  if (row.province.includes(keyword) || row.city.includes(keyword)) return true;
  // Province and city written together: 广东深圳, 广东省深圳市.
  const province = stripSuffix(row.province);
  const city = stripSuffix(row.city);
  return `${row.province}${row.city}`.includes(keyword) || `${province}${city}`.includes(keyword);
}

/**
 * Search the plate table. Results always keep the table order (provinces in
 * GB/T 2260 order, then by letter); the input array is never modified.
 *
 * Matching rules, first that applies wins:
 * 1. The keyword is trimmed. Omitted or empty: every row.
 * 2. Exactly one character that is a province abbreviation (`京`): every
 *    prefix of that province.
 * 3. A plate marker alone (`使`, `领`, `警`, `学`, `挂`, `港`, `澳`, `应急`, `WJ`/`武警`,
 *    `新能源`): one row explaining it (`type`, `note`), region fields empty.
 *    A whole plate number in a known layout (`粤BD12345`, `粤B1234学`,
 *    `使014578`, `WJ粤12345`): its issuing row with `type` and `note`.
 * 4. A full prefix, abbreviation plus letter, letter case-insensitive, with
 *    optional separators (`粤B`, `粤b`, `粤 B`, `粤·B`), or a whole plate
 *    number starting with one (`粤B12345`): that prefix's row, or nothing when
 *    the prefix is not in the table.
 * 5. Otherwise a substring match on the province or city name (`深圳` matches
 *    `深圳市`, `广东` matches `广东省`, `内蒙古` matches `内蒙古自治区`), also on
 *    province and city written together (`广东深圳`, `广东省深圳市`).
 * 6. If rule 5 finds nothing, it is tried once more with the keyword's
 *    administrative suffix dropped (`广西省` finds `广西壮族自治区`). The keyword
 *    as typed is tried first so that `吉林市` finds only 吉林市, not all of 吉林省.
 */
export function searchPlates(rows: PlateRow[], keyword?: string): PlateAnswer[] {
  const kw = (keyword ?? '').trim();
  if (kw === '') return rows.slice();

  const compact = kw.replace(PLATE_SEPARATORS, '').toUpperCase();
  // A marker alone (学, 使, WJ, 新能源) is explained; it belongs to no one region.
  const marker = MARKERS[compact];
  if (marker) return [{ province: '', city: '', code: '', prefix: '', ...marker }];
  // A whole plate number: its issuing row(s) and its kind.
  const kind = classifyPlate(compact);
  if (kind) {
    const { prefix, ...explained } = kind;
    if (!prefix) return [{ province: '', city: '', code: '', prefix: '', ...explained }];
    const issued =
      prefix.length === 1 ? rows.filter((r) => r.code === prefix) : rows.filter((r) => r.prefix === prefix);
    if (prefix.length === 1) {
      // 武警 plates name the province only.
      const province = issued[0]?.province ?? '';
      return [{ province, city: '', code: prefix, prefix: '', ...explained }];
    }
    return issued.map((r) => ({ ...r, ...explained }));
  }

  if ([...kw].length === 1 && rows.some((r) => r.code === kw)) {
    return rows.filter((r) => r.code === kw);
  }

  const plate = PLATE_LIKE.exec(compact);
  if (plate && rows.some((r) => r.code === plate[1])) {
    const prefix = `${plate[1]}${plate[2].toUpperCase()}`;
    return rows.filter((r) => r.prefix === prefix);
  }

  const found = rows.filter((r) => matchesName(r, kw));
  if (found.length > 0) return found;

  const stripped = stripSuffix(kw);
  if (stripped === kw) return found;
  return rows.filter((r) => matchesName(r, stripped));
}
