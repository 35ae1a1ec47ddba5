import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { todayInShanghai } from '../../../shared/shanghai-day.js';
import { EARLIEST_BIRTHDAY, inspectIdCard, type IdCardProblem } from '../../shared/id-card.js';
import { IdFactsSchema } from '../../shared/schemas.js';
import { literalUnion } from '../../../shared/literal-union.js';

const PROBLEMS: IdCardProblem[] = ['length', 'characters', 'region', 'birthday', 'future_birthday', 'checksum'];

const IdCardSchema = Type.Object({
  input: Type.String({ description: 'The number as checked (x upper-cased)' }),
  valid: Type.Boolean(),
  problem: Type.Optional(
    literalUnion(PROBLEMS, { description: 'Machine-readable kind of the first problem found (only when invalid)' }),
  ),
  reason: Type.Optional(
    Type.String({
      description: 'Why the number is invalid, in Chinese (only when invalid)',
      examples: ['校验码错误：第 18 位应为 X，实际为 1'],
    }),
  ),
  id18: Type.Optional(
    Type.String({
      description: 'The 18-digit form; for a 15-digit number the converted one (19 inserted, check digit computed)',
    }),
  ),
  expectedCheckDigit: Type.Optional(
    Type.String({ description: 'The check digit the first 17 digits call for, whenever they are well formed' }),
  ),
  gender: Type.Optional(IdFactsSchema.gender),
  birthday: Type.Optional(IdFactsSchema.birthday),
  age: Type.Optional(IdFactsSchema.age),
  zodiac: Type.Optional(IdFactsSchema.zodiac),
  constellation: Type.Optional(IdFactsSchema.constellation),
  lunarBirthday: Type.Optional(IdFactsSchema.lunarBirthday),
  region: Type.Optional(IdFactsSchema.region),
  document: Type.Optional(IdFactsSchema.document),
});

export default async function idCardRoute(app: FastifyInstance) {
  lookupRoute(app, {
    path: '/id-card',
    zh: '身份证信息查询：校验号码并解读地区、生日、性别、年龄、生肖和星座；支持港澳台居民居住证。',
    summary: '身份证信息查询 ID-card lookup',
    description:
      '校验并解读居民身份证号码（GB 11643-1999）及港澳台居民居住证号码（地区码 810000 香港、820000 澳门、830000 台湾，仅 18 位）；出生年份早于 1900 年的号码无效。 ' +
      'Validates a mainland resident ID number (GB 11643-1999), or a residence permit number for Hong Kong, Macau and Taiwan residents (region 810000 / 820000 / 830000, 18 digits only), and explains it. 18-digit numbers: region code, real birthday, ISO 7064 MOD 11-2 check digit (`X` = 10, `x` accepted). ' +
      '15-digit numbers (issued before 1999) are converted to 18 digits (`19` inserted, check digit computed). ' +
      `A well-formed number that fails a check answers **200 with \`valid: false\`** and the exact reason — the first problem in the order length, characters, region (unknown code, historical codes included), birthday (no such date, or before ${EARLIEST_BIRTHDAY}), future birthday, checksum — since "not valid" is this service's answer, not a failure. ` +
      'A malformed parameter (missing, empty, longer than 18 characters, anything but digits and X) is a 500 naming `id`. ' +
      'Facts are given only for a valid number: gender, birthday, age (today in Asia/Shanghai), zodiac animal (生肖 of the lunar year), constellation, lunar birthday, and the province, city and district of issue. ' +
      'Region codes merge the 2023 division table with historical GB/T 2260 codes, so cards from abolished counties still resolve (`historical: true`).',
    query: Type.Object({
      id: Type.String({
        minLength: 1,
        maxLength: 18,
        pattern: '^[0-9Xx]+$',
        'x-hint': '1–18 位数字或 X（18 位新号码或 15 位旧号码）',
        description: 'The ID number (18 digits, or 15 for an old card)',
        examples: ['11010519491231002X'],
      }),
    }),
    data: IdCardSchema,
    cache: { maxAge: 3600, vary: () => todayInShanghai() },
    handler: (q) => inspectIdCard(q.id, todayInShanghai()),
  });
}
