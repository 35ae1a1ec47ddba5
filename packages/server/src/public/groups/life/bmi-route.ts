import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { computeBmi, type BmiStandard } from './bmi.js';

export default async function bmiRoute(app: FastifyInstance) {
  lookupRoute(app, {
    path: '/bmi',
    zh: '体质指数（BMI）计算：按身高体重计算，按中国标准（或 WHO）给出分类和健康体重范围。',
    summary: 'BMI 计算 BMI calculator',
    description:
      'BMI = weight (kg) / height (m)². Chinese adult standard by default (WS/T 428-2013: < 18.5 偏瘦, 18.5–23.9 正常, 24–27.9 超重, ≥ 28 肥胖); `standard=who` uses the WHO classification. ' +
      'The category is decided on the exact BMI (23.96 is 正常 under the Chinese standard). Returns the category in Chinese and English and the healthy weight range for the height. For adults; not medical advice.',
    query: Type.Object({
      height: Type.Number({
        minimum: 50,
        maximum: 260,
        description: 'Height in centimetres (50–260)',
        examples: [175],
      }),
      weight: Type.Number({ minimum: 2, maximum: 500, description: 'Weight in kilograms (2–500)', examples: [70] }),
      standard: Type.Union([Type.Literal('china'), Type.Literal('who')], {
        default: 'china',
        description: 'china (default) or who',
      }),
    }),
    data: Type.Object({
      bmi: Type.Number({
        description:
          'weight / height², rounded to two decimals (half up); the category is decided on the exact value, so a BMI of 23.996 shows 24 and is still 正常',
        examples: [22.86],
      }),
      category: Type.String({ examples: ['正常'] }),
      categoryEn: Type.String({ examples: ['normal'] }),
      standard: Type.String(),
      height: Type.Number(),
      weight: Type.Number(),
      healthyBmi: Type.Object({ min: Type.Number(), max: Type.Number() }),
      healthyWeight: Type.Object({ min: Type.Number({ description: 'kg' }), max: Type.Number({ description: 'kg' }) }),
      toHealthy: Type.Number({ description: 'kg to gain (negative: to lose) to reach the healthy range; 0 inside it' }),
    }),
    cache: { maxAge: 86400 },
    handler: (q) => computeBmi(q.height, q.weight, q.standard as BmiStandard),
  });
}
