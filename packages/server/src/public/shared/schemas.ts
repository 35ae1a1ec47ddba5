import { Type, type StringOptions } from '@sinclair/typebox';
import { stringEnum } from '../../shared/literal-union.js';
import { NAME_THRESHOLD } from '../../engines/color/chinese-colors.js';

/** Schemas that endpoints of more than one group answer or accept; each route file keeps its own otherwise. */

/**
 * Printable ASCII without a double quote or a backslash: text JSON writes as it is, with no escape.
 */
export const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
export const isPlainAscii = (text: string) => PLAIN_ASCII.test(text);

/**
 * An answer field the service composes itself from plain ASCII (isPlainAscii): a hex colour, `rgb(…)`, a date, a
 * postcode, a login name made of pinyin and digits. fast-json-stringify copies such a string as it is (its documented
 * `unsafe` format) instead of testing every character for escapes, which on Node 20–24 was most of a random colour's
 * serialisation (10 colours: 9.5 → 3.8 µs). **Never** for text that comes from a caller or a request header: a `"` in
 * it would break the JSON. Pieces taken from a shipped table are checked with isPlainAscii when the table loads.
 * lookup-platform.test.ts checks the answers of every route that has such fields, and /openapi.json does not show the
 * format (web/openapi.ts).
 */
export const AsciiText = (options: StringOptions = {}) => Type.String({ ...options, format: 'unsafe' });

/** A person's gender as the answers write it. */
export const GENDERS = ['男', '女'] as const;

/** The `seed` parameter of every endpoint with reproducible random output. */
export const SeedParam = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      'Any text (≤ 64 chars): the same seed and parameters give the same output. Seeded output is reproducible, so never use it as a secret.',
    examples: ['demo'],
  }),
);

/** A colour's nearest Chinese traditional colour name: colour conversion and random colours. */
export const ChineseNameSchema = Type.Union(
  [
    Type.Object({
      name: Type.String({ examples: ['胭脂'] }),
      pinyin: Type.String({ examples: ['yān zhī'] }),
      hex: Type.String({ examples: ['#9D2933'] }),
      aliases: Type.Optional(Type.Array(Type.String())),
      deltaE: Type.Number({ description: 'CIEDE2000 difference from the colour (0 = identical)' }),
    }),
    Type.Null(),
  ],
  {
    description: `Nearest Chinese traditional colour name within ΔE00 ≤ ${NAME_THRESHOLD} (data/chinese-colors.json), else null`,
  },
);

/** The region an ID number was issued in; shared with the random ID-card and random-person schemas. */
export const IdRegionSchema = Type.Object({
  code: Type.String({
    description: 'Six-digit GB/T 2260 code (the first six digits of the number)',
    examples: ['110105'],
  }),
  province: Type.String({ examples: ['北京市'] }),
  city: Type.String({
    description:
      'Prefecture-level city; the municipality itself for 北京/天津/上海/重庆; empty for a county directly under its province (济源市, 石河子市)',
    examples: ['北京市'],
  }),
  district: Type.String({ examples: ['朝阳区'] }),
  historical: Type.Boolean({
    description:
      'true when the code is no longer in the 2023 division table (abolished or recoded); old cards still carry it',
  }),
  name: Type.String({ description: 'Province, city and district joined without repeats', examples: ['北京市朝阳区'] }),
});

/** The facts a valid number encodes. */
export const IdFactsSchema = {
  gender: stringEnum(GENDERS, { description: '17th digit: odd 男, even 女' }),
  birthday: Type.String({ format: 'date', examples: ['1949-12-31'] }),
  age: Type.Integer({ description: 'Whole years on today’s date in Asia/Shanghai' }),
  zodiac: Type.String({ description: '生肖 of the lunar year (changes at the Spring Festival)', examples: ['牛'] }),
  constellation: Type.String({ description: '星座', examples: ['摩羯座'] }),
  lunarBirthday: Type.String({ description: 'Birthday on the Chinese calendar', examples: ['一九四九年冬月十二'] }),
  region: IdRegionSchema,
  document: stringEnum(['居民身份证', '港澳居民居住证', '台湾居民居住证'], {
    description:
      '证件类型：居民身份证，或港澳台居民居住证（地区码 810000 香港、820000 澳门、830000 台湾） Which card the number belongs to',
  }),
};
