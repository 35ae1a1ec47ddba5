import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { literalUnion } from '../../../shared/literal-union.js';
import { rngFor } from '../../../shared/rng.js';
import { alphabetOf, randomString, CHARSETS, type Charset } from './random-string.js';
import { SeedParam } from '../../shared/schemas.js';

export default async function randomStringRoute(app: FastifyInstance) {
  lookupRoute(app, {
    path: '/random-string',
    zh: '生成随机字符串（密码、令牌等），可选长度和字符集，使用密码学安全随机数。',
    summary: '随机字符串 Random string',
    description:
      'Cryptographically secure random strings (Node’s CSPRNG, unbiased) unless `seed` is given. `charset`: alnum (default), alpha, lower, upper, numeric, hex, symbols; `custom` gives your own characters (2–256 distinct, overrides charset).',
    query: Type.Object({
      length: Type.Integer({ minimum: 1, maximum: 1024, default: 16, description: 'Characters per string (1–1024)' }),
      count: Type.Integer({ minimum: 1, maximum: 100, default: 1, description: 'How many strings (1–100)' }),
      charset: literalUnion(Object.keys(CHARSETS) as Charset[], { default: 'alnum' }),
      custom: Type.Optional(Type.String({ minLength: 2, maxLength: 256, description: 'Your own characters' })),
      seed: SeedParam,
    }),
    data: Type.Object({
      strings: Type.Array(Type.String()),
      length: Type.Integer(),
      alphabet: Type.String({ description: 'The characters drawn from' }),
      entropyBits: Type.Number({ description: 'Entropy of each string: length × log2(alphabet size)' }),
      secure: Type.Boolean({ description: 'false when seeded (reproducible)' }),
    }),
    handler: (q) => {
      const rng = rngFor(q.seed);
      const alphabet = alphabetOf(q.charset, q.custom);
      const strings = Array.from({ length: q.count }, () => randomString(rng, alphabet, q.length));
      return {
        strings,
        length: q.length,
        alphabet: alphabet.join(''),
        entropyBits: Math.round(q.length * Math.log2(alphabet.length) * 100) / 100,
        secure: !rng.seeded,
      };
    },
  });
}
