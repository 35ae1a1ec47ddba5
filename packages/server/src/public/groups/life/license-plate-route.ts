import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { loadPlates, searchPlates } from './license-plates.js';

const PlateSchema = Type.Object(
  {
    province: Type.String({ description: 'Full name of the provincial-level region', examples: ['广东省'] }),
    city: Type.String({
      description: 'The city or prefecture the prefix belongs to (or what the prefix is for)',
      examples: ['深圳市'],
    }),
    code: Type.String({
      maxLength: 1,
      description:
        '省份简称 One-character province abbreviation; empty for a plate kind that belongs to no province (使, a marker typed alone)',
      examples: ['粤'],
    }),
    prefix: Type.String({
      maxLength: 2,
      description: '发牌机关代号 Abbreviation plus issuing letter; empty when the plate carries none (使, WJ)',
      examples: ['粤B'],
    }),
    type: Type.Optional(
      Type.String({
        description:
          '号牌种类，仅当 keyword 是完整号牌或号牌标记时给出 Plate kind, when the keyword is a whole plate number or a marker',
        examples: ['新能源小型汽车（纯电动）'],
      }),
    ),
    note: Type.Optional(
      Type.String({ description: '号牌格式说明 What the plate layout means', examples: ['新能源汽车号牌…'] }),
    ),
  },
  { additionalProperties: false },
);

export default async function licensePlateRoute(app: FastifyInstance) {
  const plates = loadPlates(); // read once: the table is static
  lookupRoute(app, {
    path: '/license-plate',
    zh: '车牌归属地：按省份简称、发牌机关代号、完整号牌或地名查询，并解释号牌种类。',
    summary: '车牌归属地 License-plate region lookup',
    description:
      '车牌归属地与号牌种类：输入省份简称、发牌机关代号（粤B）、完整号牌（粤B12345、粤BD12345 新能源、粤B1234学、粤Z1234港、使014578、WJ粤12345、粤A1234应急）或地名。' +
      '完整号牌或单独的号牌标记（使 领 警 学 挂 港 澳 应急 WJ 新能源）会给出 `type`（号牌种类）和 `note`（格式说明）。 ' +
      'Where a vehicle licence-plate prefix was issued. A whole plate number in a known layout, or a plate marker alone (使 领 警 学 挂 港 澳 应急 WJ/武警 新能源), also gets `type` (the plate kind: ordinary, new-energy small/large pure-electric or not, embassy, consulate, police, driving school, trailer, Hong Kong/Macau cross-border, emergency, armed police) and `note` (the layout explained). `keyword` (trimmed, at most 20 characters) matches, first rule that applies: ' +
      'a province abbreviation alone (`京` → every 京 prefix); a full prefix, letter case-insensitive, or a whole plate number (`粤B`, `粤b`, `粤B12345` → 深圳市); ' +
      'otherwise a fragment of the province or city name (`深圳`, `广东`, `广东深圳`; an administrative suffix is dropped when the name as typed finds nothing). ' +
      'Omitted or empty: every prefix of all 31 mainland provincial regions. No match: an empty array. Results keep table order (provinces in GB/T 2260 order, then by letter).',
    query: Type.Object({
      keyword: Type.Optional(
        Type.String({
          maxLength: 20,
          description:
            'Abbreviation, prefix, plate number or place-name fragment; at most 20 characters (omit for all)',
          examples: ['粤B'],
        }),
      ),
    }),
    data: Type.Array(PlateSchema),
    cache: { maxAge: 86400 },
    handler: (q) => searchPlates(plates, q.keyword),
  });
}
