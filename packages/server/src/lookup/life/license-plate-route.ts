import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../plugins/lookup-platform.js';
import { loadPlates, searchPlates } from './license-plates.js';

const PlateSchema = Type.Object(
  {
    province: Type.String({ description: 'Full name of the provincial-level region', examples: ['广东省'] }),
    city: Type.String({ description: 'The city or prefecture the prefix belongs to (or what the prefix is for)', examples: ['深圳市'] }),
    code: Type.String({ minLength: 1, maxLength: 1, description: 'One-character province abbreviation', examples: ['粤'] }),
    prefix: Type.String({ minLength: 2, maxLength: 2, description: 'Abbreviation plus issuing letter', examples: ['粤B'] }),
  },
  { additionalProperties: false },
);

export default async function licensePlateRoute(app: FastifyInstance) {
  const plates = loadPlates(); // read once: the table is static
  lookupRoute(app, {
    group: 'life',
    path: '/license-plate',
    summary: '车牌归属地 License-plate region lookup',
    description:
      'Where a vehicle licence-plate prefix was issued. `keyword` (trimmed, at most 20 characters) matches, first rule that applies: ' +
      'a province abbreviation alone (`京` → every 京 prefix); a full prefix, letter case-insensitive, or a whole plate number (`粤B`, `粤b`, `粤B12345` → 深圳市); ' +
      'otherwise a fragment of the province or city name (`深圳`, `广东`, `广东深圳`; an administrative suffix is dropped when the name as typed finds nothing). ' +
      'Omitted or empty: every prefix of all 31 mainland provincial regions. No match: an empty array. Results keep table order (provinces in GB/T 2260 order, then by letter).',
    query: Type.Object({
      keyword: Type.Optional(
        Type.String({
          maxLength: 20,
          description: 'Abbreviation, prefix, plate number or place-name fragment; at most 20 characters (omit for all)',
          examples: ['粤B'],
        }),
      ),
    }),
    data: Type.Array(PlateSchema),
    cache: { maxAge: 86400 },
    handler: (q) => searchPlates(plates, q.keyword),
  });
}
