/**
 * What kind of plate a plate number is (号牌种类), from its layout as GA 36-2018《中华人民共和国机动车号牌》 and the
 * Ministry of Public Security's notices define it: ordinary plates, new-energy plates, and the plates whose last
 * character or first characters name their use (使 领 警 学 挂 港 澳 应急 WJ).
 *
 * Pure module: no HTTP framework here.
 */

export interface PlateType {
  /** 号牌种类, e.g. `新能源小型汽车（纯电动）`. */
  type: string;
  /** What the layout means, in Chinese. */
  note: string;
  /** The issuing prefix (`粤B`) when the plate carries one; the province abbreviation alone for 武警 plates. */
  prefix?: string;
}

const HAN = '\\p{Script=Han}';
/** Serial characters: digits and capital letters except I and O, which plates never use. */
const SERIAL = '[0-9A-HJ-NP-Z]';

const SUFFIX_TYPES: Record<string, Omit<PlateType, 'prefix'>> = {
  领: { type: '领馆汽车', note: '外国驻华领事馆的车辆：省份简称、发牌机关代号、4 位序号，末位为黑底红字“领”。' },
  警: { type: '警用汽车', note: '公安机关的警车：白底黑字，末位为红色“警”字；省份简称、发牌机关代号、4 位序号。' },
  学: { type: '教练汽车', note: '驾校教练车：黄底黑字，末位为“学”字；省份简称、发牌机关代号、4 位序号。' },
  挂: { type: '挂车', note: '挂车：黄底黑字，末位为“挂”字；省份简称、发牌机关代号、4 位序号。' },
  港: { type: '港澳入出境车（香港）', note: '经香港入出内地的车辆：黑底白字，末位为“港”字，广东省公安厅签发（粤Z）。' },
  澳: { type: '港澳入出境车（澳门）', note: '经澳门入出内地的车辆：黑底白字，末位为“澳”字，广东省公安厅签发（粤Z）。' },
  应急: {
    type: '应急救援车辆',
    note: '国家综合性消防救援队伍等应急救援车辆（2018 年起）：省份简称、发牌机关代号、4 位序号，末两位为“应急”。',
  },
};

const ORDINARY: Omit<PlateType, 'prefix'> = {
  type: '普通汽车号牌',
  note: '省份简称、发牌机关代号，再 5 位序号（数字或除 I、O 外的字母）；小型汽车蓝底白字，大型汽车黄底黑字。',
};

const SMALL_NEV_ELECTRIC = 'DABCE';
const SMALL_NEV_HYBRID = 'FGHJK';
const NEV_NOTE =
  '新能源汽车号牌（渐变绿底为小型车，黄绿双拼为大型车）：省份简称、发牌机关代号，再 6 位序号。小型车第 1 位为字母：' +
  'D、A、B、C、E 表示纯电动，F、G、H、J、K 表示非纯电动（插电式混合动力、增程式、燃料电池）；大型车第 6 位为 D（纯电动）或 F（非纯电动）。';

const EMBASSY_TYPE: PlateType = {
  type: '使馆汽车',
  note: '外国驻华使馆的车辆：黑底白字，首位为红色“使”字，后接 3 位国别代码和 3 位序号（如 使014578），不带省份简称。',
};
const ARMED_POLICE_TYPE: PlateType = {
  type: '武警车辆',
  note: '中国人民武装警察部队的车辆：白底，“WJ”红字，后接省份简称（总部直属车辆不带）和 4–5 位序号。',
};

/** A marker typed alone (`学`, `新能源`, `武警`) is explained without a region. */
export const MARKERS: Record<string, PlateType> = {
  使: EMBASSY_TYPE,
  WJ: ARMED_POLICE_TYPE,
  武警: ARMED_POLICE_TYPE,
  新能源: { type: '新能源汽车', note: NEV_NOTE },
  ...SUFFIX_TYPES,
};

const EMBASSY = /^使(\d{3})(\d{3})$/u;
const ARMED_POLICE = new RegExp(`^WJ(${HAN})?(${SERIAL}{4,5})$`, 'u');
const WITH_SUFFIX = new RegExp(`^(${HAN})([A-Z])(${SERIAL}{4})(领|警|学|挂|港|澳|应急)$`, 'u');
const SMALL_NEV = new RegExp(`^(${HAN})([A-Z])([${SMALL_NEV_ELECTRIC}${SMALL_NEV_HYBRID}])(${SERIAL})(\\d{4})$`, 'u');
const LARGE_NEV = new RegExp(`^(${HAN})([A-Z])(\\d{5})([DF])$`, 'u');
const ORDINARY_PLATE = new RegExp(`^(${HAN})([A-Z])(${SERIAL}{5})$`, 'u');

/**
 * The kind of a whole plate number, separators already removed and latin letters upper-cased; undefined when it is
 * not a plate layout this module knows.
 *
 * @example classifyPlate('粤BD12345') // { type: '新能源小型汽车（纯电动）', prefix: '粤B', note: '…' }
 */
export function classifyPlate(plate: string): PlateType | undefined {
  if (EMBASSY.test(plate)) return { ...EMBASSY_TYPE };
  const wj = ARMED_POLICE.exec(plate);
  if (wj) return { ...ARMED_POLICE_TYPE, ...(wj[1] ? { prefix: wj[1] } : {}) };
  const suffix = WITH_SUFFIX.exec(plate);
  if (suffix) return { ...SUFFIX_TYPES[suffix[4]], prefix: suffix[1] + suffix[2] };
  const small = SMALL_NEV.exec(plate);
  if (small) {
    const electric = SMALL_NEV_ELECTRIC.includes(small[3]);
    return {
      type: `新能源小型汽车（${electric ? '纯电动' : '非纯电动'}）`,
      note: NEV_NOTE,
      prefix: small[1] + small[2],
    };
  }
  const large = LARGE_NEV.exec(plate);
  if (large)
    return {
      type: `新能源大型汽车（${large[4] === 'D' ? '纯电动' : '非纯电动'}）`,
      note: NEV_NOTE,
      prefix: large[1] + large[2],
    };
  const ordinary = ORDINARY_PLATE.exec(plate);
  if (ordinary) return { ...ORDINARY, prefix: ordinary[1] + ordinary[2] };
  return undefined;
}
