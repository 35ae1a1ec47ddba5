import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { paramError } from '../../../errors.js';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { loadPostcodes, searchPostcodes } from '../../../engines/postcodes/postcodes.js';

const Row = Type.Object({
  code: Type.String({ description: 'Administrative division code (GB/T 2260)' }),
  province: Type.String(),
  city: Type.String(),
  district: Type.String({ description: 'County-level division; empty on a prefecture row' }),
  postcode: Type.String({ description: 'Six-digit postal code' }),
});

export default async function postcodeRoute(app: FastifyInstance) {
  const rows = loadPostcodes();
  lookupRoute(app, {
    path: '/postcode',
    zh: '邮政编码查询：按地名查邮编，或按邮编查地区。',
    summary: '邮政编码查询 Postcode lookup',
    description:
      'Postcode by place name, or places by postcode, down to county level (every prefecture-level city and county of the 31 mainland provincial regions). ' +
      '`keyword` of 1–6 digits matches postcodes by prefix (6 digits = exact); otherwise place names match: the exact name first (with or without 省/市/区/县…), then places inside it, then partial matches; ' +
      'several words separated by spaces must all match (`广东 深圳`). Answers `{total, items}`; `items` holds at most `limit` rows.',
    query: Type.Object({
      keyword: Type.String({
        minLength: 1,
        maxLength: 30,
        description: 'Place name or (part of) a postcode, e.g. 深圳, 广东 深圳 or 518000',
        examples: ['深圳'],
      }),
      limit: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'At most this many rows (1–200)' }),
    }),
    data: Type.Object({ total: Type.Integer({ description: 'Matches before limit' }), items: Type.Array(Row) }),
    cache: { maxAge: 86400 },
    handler: (q) => {
      const result = searchPostcodes(rows, q.keyword, q.limit);
      if (result.total === 0)
        throw paramError('keyword', '没有与之匹配的地区或邮编，应为省、市、区县名称或 1–6 位邮编数字', q.keyword);
      return result;
    },
  });
}
