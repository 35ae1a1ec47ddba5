/**
 * China's 34 provincial-level divisions: ISO 3166-2:CN code suffix, official Chinese name, short form (as
 * IP databases write it), English name, and the capital's coordinates and time zone (used when an IP database
 * knows the province but has no coordinates of its own for the address).
 */
export interface ChinaRegion {
  /** ISO 3166-2:CN subdivision code without the `CN-` prefix, e.g. `GD` (the letter codes in force since 2017). */
  code: string;
  /** Official name, e.g. `广东省`, `内蒙古自治区`. */
  zh: string;
  /** Short form, e.g. `广东`, `内蒙古`. */
  short: string;
  en: string;
  /** The capital's coordinates. */
  lat: number;
  lon: number;
  timezone: string;
}

type Row = [code: string, zh: string, short: string, en: string, lat: number, lon: number, timezone?: string];

// Capitals: 北京 天津 石家庄 太原 呼和浩特 沈阳 长春 哈尔滨 上海 南京 杭州 合肥 福州 南昌 济南 郑州 武汉 长沙 广州 南宁 海口
// 重庆 成都 贵阳 昆明 拉萨 西安 兰州 西宁 银川 乌鲁木齐 台北 香港 澳门.
const ROWS: Row[] = [
  ['BJ', '北京市', '北京', 'Beijing', 39.9042, 116.4074],
  ['TJ', '天津市', '天津', 'Tianjin', 39.0842, 117.2009],
  ['HE', '河北省', '河北', 'Hebei', 38.0428, 114.5149],
  ['SX', '山西省', '山西', 'Shanxi', 37.8706, 112.5489],
  ['NM', '内蒙古自治区', '内蒙古', 'Inner Mongolia', 40.8426, 111.749],
  ['LN', '辽宁省', '辽宁', 'Liaoning', 41.8057, 123.4315],
  ['JL', '吉林省', '吉林', 'Jilin', 43.8171, 125.3235],
  ['HL', '黑龙江省', '黑龙江', 'Heilongjiang', 45.8038, 126.5349],
  ['SH', '上海市', '上海', 'Shanghai', 31.2304, 121.4737],
  ['JS', '江苏省', '江苏', 'Jiangsu', 32.0603, 118.7969],
  ['ZJ', '浙江省', '浙江', 'Zhejiang', 30.2741, 120.1551],
  ['AH', '安徽省', '安徽', 'Anhui', 31.8206, 117.2272],
  ['FJ', '福建省', '福建', 'Fujian', 26.0745, 119.2965],
  ['JX', '江西省', '江西', 'Jiangxi', 28.682, 115.8579],
  ['SD', '山东省', '山东', 'Shandong', 36.6512, 117.1201],
  ['HA', '河南省', '河南', 'Henan', 34.7466, 113.6254],
  ['HB', '湖北省', '湖北', 'Hubei', 30.5928, 114.3055],
  ['HN', '湖南省', '湖南', 'Hunan', 28.2282, 112.9388],
  ['GD', '广东省', '广东', 'Guangdong', 23.1291, 113.2644],
  ['GX', '广西壮族自治区', '广西', 'Guangxi', 22.817, 108.3665],
  ['HI', '海南省', '海南', 'Hainan', 20.044, 110.1999],
  ['CQ', '重庆市', '重庆', 'Chongqing', 29.563, 106.5516],
  ['SC', '四川省', '四川', 'Sichuan', 30.5728, 104.0668],
  ['GZ', '贵州省', '贵州', 'Guizhou', 26.647, 106.6302],
  ['YN', '云南省', '云南', 'Yunnan', 25.0389, 102.7183],
  ['XZ', '西藏自治区', '西藏', 'Tibet', 29.652, 91.1721],
  ['SN', '陕西省', '陕西', 'Shaanxi', 34.3416, 108.9398],
  ['GS', '甘肃省', '甘肃', 'Gansu', 36.0611, 103.8343],
  ['QH', '青海省', '青海', 'Qinghai', 36.6171, 101.7782],
  ['NX', '宁夏回族自治区', '宁夏', 'Ningxia', 38.4872, 106.2309],
  ['XJ', '新疆维吾尔自治区', '新疆', 'Xinjiang', 43.8256, 87.6168, 'Asia/Urumqi'],
  ['TW', '台湾省', '台湾', 'Taiwan', 25.033, 121.5654, 'Asia/Taipei'],
  ['HK', '香港特别行政区', '香港', 'Hong Kong', 22.3193, 114.1694, 'Asia/Hong_Kong'],
  ['MO', '澳门特别行政区', '澳门', 'Macao', 22.1987, 113.5439, 'Asia/Macau'],
];

export const CHINA_REGIONS: readonly ChinaRegion[] = ROWS.map(([code, zh, short, en, lat, lon, timezone]) => ({
  code,
  zh,
  short,
  en,
  lat,
  lon,
  timezone: timezone ?? 'Asia/Shanghai',
}));

const byCode = new Map(CHINA_REGIONS.map((r) => [r.code, r]));

/**
 * The division a name refers to: `广东`, `广东省`, `内蒙古自治区`, `Guangdong`, `Ningxia Hui Autonomous Region`
 * (English names case-insensitive, with or without the descriptive tail GeoLite2 sometimes adds).
 */
export function findChinaRegion(name: string): ChinaRegion | undefined {
  const n = name.trim();
  if (!n) return undefined;
  const lower = n.toLowerCase();
  return (
    CHINA_REGIONS.find((r) => r.zh === n || r.short === n || n.startsWith(r.short)) ??
    CHINA_REGIONS.find((r) => lower === r.en.toLowerCase() || lower.startsWith(`${r.en.toLowerCase()} `))
  );
}

export function chinaRegionByCode(code: string): ChinaRegion | undefined {
  return byCode.get(code.toUpperCase());
}

/** ISO 3166-1 country codes whose places the Chinese IP data names as provinces of 中国. */
export const GREATER_CHINA = new Set(['CN', 'HK', 'MO', 'TW']);
