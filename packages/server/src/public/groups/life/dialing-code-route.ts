import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { paramError } from '../../../errors.js';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { buildDialingCodes, searchDialingCodes } from './dialing-codes.js';

export default async function dialingCodeRoute(app: FastifyInstance) {
  const all = buildDialingCodes();
  lookupRoute(app, {
    path: '/dialing-code',
    zh: '国际区号查询：按国家名称（含别名）、ISO 代码或区号查询。',
    summary: '国际区号查询 International dialing codes',
    description:
      '按国家或地区的中文名、常用别名（印度尼西亚、南韩、刚果金）、英文名或别名（Ivory Coast、UK）、ISO 代码（CN、CHN）或区号（86、+86、0086）查询；不带参数返回全部。名称完全相同者排在最前。 ' +
      'By Chinese or English country name or common alternative name (fragment; case, spaces, dots, brackets and accents ignored), ISO 3166 code (`CN`, `CHN`) or the calling code itself (`86`, `+86`, `0086`); omitted = all. Data: libphonenumber-js metadata and i18n-iso-countries names.',
    query: Type.Object({
      keyword: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 40,
          description: '国家或地区名称（含常用别名）、ISO 代码或区号 Country name or alias, ISO code or calling code',
          examples: ['日本', '印度尼西亚', '+44', 'DE'],
        }),
      ),
    }),
    data: Type.Array(
      Type.Object({
        iso2: Type.String(),
        iso3: Type.String(),
        name: Type.String(),
        nameEn: Type.String(),
        code: Type.String(),
        dial: Type.String(),
      }),
    ),
    cache: { maxAge: 86400 },
    handler: (q) => {
      const found = searchDialingCodes(all, q.keyword);
      if (found.length === 0)
        throw paramError('keyword', '没有与之匹配的国家或地区，应为国家或地区名称、ISO 代码或区号', q.keyword);
      return found;
    },
  });
}
