import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { publicBaseUrl } from '../../../http/public-url.js';
import { AsciiText, GENDERS } from '../../shared/schemas.js';
import { stringEnum } from '../../../shared/literal-union.js';
import { generateUsers, loadUserData, parseGender } from './random-user.js';

const RandomUserSchema = Type.Object({
  id: Type.String({ format: 'uuid', description: 'UUID v4', examples: ['5fb9220d-9b0f-4d32-a248-6492457c3890'] }),
  name: Type.String({ examples: ['张伟'] }),
  gender: stringEnum(GENDERS),
  username: AsciiText({ description: 'Pinyin-based login name', examples: ['zhangwei88'] }),
  phone: AsciiText({
    description: '11-digit mainland mobile number with a real operator segment',
    examples: ['13812345678'],
  }),
  email: AsciiText({ examples: ['zhangwei88@163.com'] }),
  avatar: Type.String({
    description: "URL of this service's avatar image for the user",
    examples: ['https://api.example.com/api/random-avatar/image?seed=5fb9220d-9b0f-4d32-a248-6492457c3890'],
  }),
  birthday: AsciiText({ description: 'YYYY-MM-DD; aged 18–60 at createdAt', examples: ['1990-05-17'] }),
  address: Type.Object({
    province: Type.String({ examples: ['广东省'] }),
    city: Type.String({ examples: ['深圳市'] }),
    street: Type.String({
      description: 'District, road and number, often with the housing estate and flat',
      examples: ['南山区科技路88号阳光花园3栋2单元1502室'],
    }),
    zipCode: AsciiText({
      description: 'Six-digit postcode of the district (data/postcodes.json)',
      examples: ['518052'],
    }),
  }),
  company: Type.String({ examples: ['深圳市华信科技有限公司'] }),
  job: Type.String({ description: 'Chinese job title', examples: ['软件工程师'] }),
  website: AsciiText({ examples: ['https://zhangwei88.github.io'] }),
  ip: AsciiText({ description: 'Public IPv4 address', examples: ['43.167.120.14'] }),
  createdAt: AsciiText({
    description: 'ISO 8601 UTC with milliseconds, within the three years before now (seeded: before 2025-01-01)',
    examples: ['2024-03-08T06:21:45.123Z'],
  }),
});

export default async function randomUserRoute(app: FastifyInstance) {
  const data = loadUserData();

  lookupRoute(app, {
    path: '/random-user',
    zh: '随机生成用户资料（姓名、头像、联系方式等），count 指定数量，seed 可复现。',
    summary: '随机用户 Random user profiles',
    description: [
      'Random Chinese user profiles that read as real: the given name fits the gender, the phone number has a real operator segment,',
      'province, city and postcode belong together (a real district), the job is a Chinese title.',
      '',
      '- `count`: 1–100, default 1.',
      '- `gender`: `male`/`female` (any case) or `男`/`女`; omitted = mixed. Anything else is an error.',
      '- `seed`: up to 64 characters (an integer works too). The same seed, count and gender give the same users; a larger',
      '  count only appends users. Seeded answers are dated before 2025-01-01, so they do not move with the clock; `avatar` follows the host you call.',
      "  Since 2026-11-27 (drawn with the service's own generator instead of Faker) a seed gives other users than it did before that day.",
      '- Not cached: every call without a seed gives new users.',
    ].join('\n'),
    query: Type.Object({
      count: Type.Integer({ minimum: 1, maximum: 100, default: 1, description: 'How many users', examples: [5] }),
      gender: Type.Optional(
        Type.String({
          maxLength: 10,
          description: 'male, female, 男 or 女; omitted = mixed',
          examples: ['male'],
          'x-hint': 'male、female、男 或 女',
        }),
      ),
      seed: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'Seed for reproducible output',
          examples: ['42'],
          'x-hint': '1 至 64 个字符的字符串或整数',
        }),
      ),
    }),
    data: Type.Array(RandomUserSchema),
    handler: (q, req) =>
      generateUsers(data, { count: q.count, gender: parseGender(q.gender), seed: q.seed, baseUrl: publicBaseUrl(req) }),
  });
}
