import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import { getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/zh.json'));
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

/**
 * Other Chinese names people type for a country (全称, 旧称, 俗称), compiled by the project; i18n-iso-countries
 * carries one Chinese name per country. English alternatives come from i18n-iso-countries itself.
 */
const ZH_ALIASES: Record<string, string[]> = {
  ID: ['印度尼西亚', '印度尼西亚共和国'],
  KR: ['南韩', '大韩民国', '南朝鲜'],
  KP: ['北韩', '北朝鲜', '朝鲜民主主义人民共和国'],
  US: ['美利坚合众国', '美利坚', '美國'],
  GB: ['大不列颠及北爱尔兰联合王国', '联合王国', '大不列颠', '英格兰', '苏格兰', '威尔士', '英國'],
  RU: ['俄国', '俄罗斯联邦', '俄羅斯'],
  CN: ['中华人民共和国', '中国大陆', '内地'],
  TW: ['台湾', '臺灣', '中国台湾'],
  HK: ['香港特别行政区', '中国香港'],
  MO: ['澳门特别行政区', '中国澳门', '澳門'],
  JP: ['日本国'],
  DE: ['德意志联邦共和国', '德國'],
  FR: ['法兰西', '法兰西共和国'],
  IT: ['意大利共和国', '義大利'],
  AU: ['澳洲', '澳大利亚联邦'],
  NZ: ['纽西兰'],
  SG: ['星加坡', '新加坡共和国'],
  MY: ['大马', '马来西亚联邦'],
  TH: ['泰王国', '泰國'],
  VN: ['越南社会主义共和国'],
  LA: ['老挝人民民主共和国', '寮国'],
  MM: ['缅甸联邦', '缅甸联邦共和国'],
  KH: ['柬埔寨王国', '高棉'],
  PH: ['菲律宾共和国'],
  BN: ['文莱达鲁萨兰国', '汶莱'],
  TL: ['东帝汶民主共和国'],
  IN: ['印度共和国'],
  PK: ['巴基斯坦伊斯兰共和国'],
  AE: ['阿拉伯联合酋长国', '阿联'],
  SA: ['沙特', '沙乌地阿拉伯'],
  IR: ['伊朗伊斯兰共和国', '波斯'],
  SY: ['阿拉伯叙利亚共和国'],
  TR: ['土耳其共和国', '土耳其', '土国'],
  EG: ['阿拉伯埃及共和国'],
  ZA: ['南非共和国'],
  CD: ['刚果金', '刚果民主共和国', '民主刚果'],
  CG: ['刚果布', '刚果共和国'],
  CI: ['象牙海岸'],
  CV: ['佛得角共和国'],
  SZ: ['埃斯瓦蒂尼'],
  MK: ['马其顿'],
  NL: ['尼德兰', '荷兰王国'],
  CZ: ['捷克共和国'],
  CA: ['加拿大'],
  MX: ['墨西哥合众国'],
  BR: ['巴西联邦共和国'],
  AR: ['阿根廷共和国'],
  CH: ['瑞士联邦'],
  BO: ['玻利维亚多民族国'],
  VE: ['委内瑞拉玻利瓦尔共和国'],
  TZ: ['坦桑尼亚联合共和国'],
  MD: ['摩尔多瓦共和国'],
  BY: ['白俄罗斯共和国', '白俄'],
  UA: ['乌克兰'],
  IE: ['爱尔兰共和国', '爱尔兰'],
  VA: ['梵蒂冈', '教廷'],
};

/** Lower case without spaces, dots, diacritics or brackets: `Côte d'Ivoire` → `cotedivoire`, `刚果（金）` → `刚果金`. */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s.'’,()（）·-]/gu, '');
}

export interface DialingCode {
  /** ISO 3166-1 alpha-2 */
  iso2: string;
  iso3: string;
  name: string;
  nameEn: string;
  /** Country calling code without the plus, e.g. "86" */
  code: string;
  /** The same with the plus, e.g. "+86" */
  dial: string;
}

/** Every name a country answers to, normalised: the Chinese and English names, English alternatives, Chinese aliases. */
function searchNames(iso2: string): string[] {
  const en = countries.getNames('en', { select: 'all' })[iso2] ?? [];
  const zh = countries.getNames('zh', { select: 'all' })[iso2] ?? [];
  return [...new Set([...zh, ...(ZH_ALIASES[iso2] ?? []), ...en].map(normaliseName))];
}

const namesOf = new Map<string, string[]>();

/** Every region libphonenumber knows, with Chinese and English names from i18n-iso-countries. */
export function buildDialingCodes(): DialingCode[] {
  return getCountries()
    .map((iso2) => {
      const code = getCountryCallingCode(iso2 as CountryCode);
      return {
        iso2,
        iso3: countries.alpha2ToAlpha3(iso2) ?? '',
        name: countries.getName(iso2, 'zh') ?? iso2,
        nameEn: countries.getName(iso2, 'en') ?? iso2,
        code,
        dial: `+${code}`,
      };
    })
    .sort((a, b) => Number(a.code) - Number(b.code) || a.iso2.localeCompare(b.iso2));
}

/**
 * Matching: `+86` / `86` / `0086` → by calling code (exact); two or three latin letters → ISO code first, then names;
 * otherwise a fragment of any name the country answers to: Chinese name or alias (`印度尼西亚`, `南韩`), English
 * name or alternative (`Ivory Coast`, `UK`), ignoring case, spaces, dots, brackets and accents. A country whose
 * name equals the keyword comes first. Empty keyword → all.
 */
export function searchDialingCodes(all: DialingCode[], keyword?: string): DialingCode[] {
  const k = (keyword ?? '').trim();
  if (!k) return all;
  const digits = /^(?:\+|00)?(\d{1,4})$/.exec(k);
  if (digits) return all.filter((c) => c.code === digits[1]);
  const lower = k.toLowerCase();
  if (/^[a-z]{2,3}$/i.test(k)) {
    const iso = all.filter((c) => c.iso2.toLowerCase() === lower || c.iso3.toLowerCase() === lower);
    if (iso.length) return iso;
  }
  const key = normaliseName(k);
  if (!key) return [];
  const names = (c: DialingCode) => {
    let n = namesOf.get(c.iso2);
    if (!n) namesOf.set(c.iso2, (n = searchNames(c.iso2)));
    return n;
  };
  const hits = all.filter((c) => names(c).some((n) => n.includes(key)));
  const exact = hits.filter((c) => names(c).includes(key));
  return [...exact, ...hits.filter((c) => !exact.includes(c))];
}
