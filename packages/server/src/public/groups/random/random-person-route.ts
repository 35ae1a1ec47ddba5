import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { lookupRoute } from '../../platform/lookup-platform.js';
import { todayInShanghai } from '../../../shared/shanghai-day.js';
import { loadPersonData, randomPerson } from './random-person.js';
import { parseGender } from './random-user.js';
import { rngFor } from '../../../shared/rng.js';
import { GENDERS, SeedParam } from '../../shared/schemas.js';
import { literalUnion, stringEnum } from '../../../shared/literal-union.js';

const PersonSchema = Type.Object({
  name: Type.String({ examples: ['李秀英'] }),
  namePinyin: Type.String({ examples: ['lǐ xiù yīng'] }),
  gender: stringEnum(GENDERS),
  birthday: Type.String({ format: 'date', examples: ['1986-05-28'] }),
  age: Type.Integer({ description: 'Whole years today (Asia/Shanghai)', examples: [40] }),
  zodiac: Type.String({ description: '生肖 of the lunar year of birth', examples: ['虎'] }),
  constellation: Type.String({ examples: ['双子座'] }),
  lunarBirthday: Type.String({ examples: ['一九八六年四月二十'] }),
  ethnicity: Type.String({
    description: '民族: 汉族 ≈ 91%; a minority is housed in a province where it lives',
    examples: ['汉族'],
  }),
  idCard: Type.String({
    description: 'Valid 18-digit ID number: address county, birthday, sex (17th digit) and check digit all agree',
    examples: ['320106198605283025'],
  }),
  phone: Type.String({ pattern: '^1\\d{10}$', examples: ['13912345678'] }),
  phoneOperator: Type.String({ examples: ['中国移动'] }),
  address: Type.Object({
    province: Type.String({ examples: ['江苏省'] }),
    city: Type.String({
      description: 'Empty for a county-level city directly under its province (济源市 appears as the city)',
      examples: ['南京市'],
    }),
    district: Type.String({ examples: ['鼓楼区'] }),
    street: Type.String({ examples: ['鼓楼区中山路128号锦绣花园12栋2单元1502室'] }),
    postcode: Type.String({ pattern: '^\\d{6}$', examples: ['210009'] }),
    regionCode: Type.String({
      description: 'GB/T 2260 code of the county: the first six digits of idCard',
      examples: ['320106'],
    }),
    full: Type.String({ examples: ['江苏省南京市鼓楼区中山路128号锦绣花园12栋2单元1502室'] }),
  }),
  height: Type.Integer({ description: 'cm', examples: [160] }),
  weight: Type.Number({ description: 'kg, one decimal', examples: [55.3] }),
  bmi: Type.Number({ examples: [21.6] }),
  bloodType: literalUnion(['O', 'A', 'B', 'AB'], {
    description: 'ABO group, Chinese distribution O 34%, A 28%, B 29%, AB 9%',
  }),
  education: Type.String({ description: 'Highest education completed', examples: ['本科'] }),
  occupation: Type.String({ examples: ['会计'] }),
});

export default async function randomPersonRoute(app: FastifyInstance) {
  const data = loadPersonData();

  lookupRoute(app, {
    path: '/random-person',
    zh: '随机生成一个完整的虚拟身份：姓名、性别、合法的身份证号、生日、住址、手机号等，可用 seed 复现。',
    summary: '随机身份 Random person',
    description: [
      'A complete, self-consistent fictional Chinese identity. The ID number is valid and agrees with everything else: its first six digits are the county of',
      'the address (whose postcode is real, data/postcodes.json), then the birthday, then a sequence whose 17th digit is odd for 男 and even for 女.',
      'Zodiac animal (生肖 of the lunar year) and constellation follow the birthday; the phone number has a real operator segment.',
      'Ethnicity is drawn from the 2020 census shares (汉族 ≈ 91%) and a minority member lives where that group does (e.g. 壮族 mostly in 广西, favouring its autonomous areas).',
      'Height and weight follow Chinese adult distributions by sex (means 169.7 cm / 158.0 cm); blood type O 34%, A 28%, B 29%, AB 9%;',
      'education follows the birth cohort, occupation the education and age (retired at 60 for men, 55 for women). Aged 18–70.',
      '',
      '- `gender`: `male`/`female` or `男`/`女`; omitted = either. `count`: 1–100, default 1.',
      '- `seed`: the same seed and parameters give the same people all calendar year (Asia/Shanghai); their birthdays are drawn so that everyone is 18–70 on every day of that year, and move on with the year on 1 January.',
    ].join('\n'),
    query: Type.Object({
      gender: Type.Optional(
        Type.String({
          maxLength: 10,
          description: 'male, female, 男 or 女',
          examples: ['female'],
          'x-hint': 'male、female、男 或 女',
        }),
      ),
      count: Type.Integer({
        minimum: 1,
        maximum: 100,
        default: 1,
        description: 'How many people (1–100)',
        examples: [1],
      }),
      seed: SeedParam,
    }),
    data: Type.Array(PersonSchema),
    handler: (q) => {
      const rng = rngFor(q.seed);
      const today = todayInShanghai();
      const opts = {
        gender: parseGender(q.gender),
        today,
        ageWindow: rng.seeded ? ('year' as const) : ('day' as const),
      };
      return Array.from({ length: q.count }, () => randomPerson(rng, data, opts));
    },
  });
}
