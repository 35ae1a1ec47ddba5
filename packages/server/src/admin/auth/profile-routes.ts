import { transact } from '../../db/transaction.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { changesOf } from '../shared/actor.js';
import { data } from './schemas.js';
import { nowIso } from './service.js';
import { ANY_PENDING } from '../../errors.js';

const TAG = '认证 Auth';

export const ProfileSchema = Type.Object({
  id: Type.String(),
  username: Type.String(),
  nickname: Type.String(),
  email: Type.String({ description: 'Empty when not given' }),
  phone: Type.String({ description: 'Empty when not given' }),
});

export const ProfileBody = Type.Object(
  {
    nickname: Type.Optional(Type.String({ maxLength: 64, examples: ['张三'] })),
    email: Type.Optional(
      Type.String({
        maxLength: 254,
        pattern: '^([^\\s@]+@[^\\s@]+\\.[^\\s@]+)?$',
        'x-hint': '邮箱地址，如 zhang@example.com；留空表示不填',
        examples: ['zhang@example.com'],
      }),
    ),
    phone: Type.Optional(
      Type.String({
        maxLength: 32,
        pattern: '^(\\+?[0-9][0-9 -]{4,30})?$',
        'x-hint': '5 至 32 位数字，可含 + 空格 -；留空表示不填',
        examples: ['13800138000'],
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1, 'x-hint': '至少包含 nickname、email、phone 之一' },
);

/** The signed-in user's own profile: /api/auth/profile (any signed-in user, no permission point). */
export default async function profileRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.db.kysely;
  const read = async (id: string) =>
    db
      .selectFrom('users')
      .select(['id', 'username', 'nickname', 'email', 'phone'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  app.get(
    '/',
    {
      config: { auth: 'authenticated', whilePending: ANY_PENDING },
      schema: { tags: [TAG], summary: '我的资料 My profile', response: { 200: data(ProfileSchema) } },
    },
    async (req) => ({ data: await read(req.auth.id) }),
  );

  app.patch(
    '/',
    {
      config: { auth: 'authenticated' },
      schema: {
        tags: [TAG],
        summary: '修改我的昵称、邮箱和手机号 Edit my nickname, email and phone',
        description:
          'Username, status and roles are changed by an administrator (PATCH /api/users/{id}). Audited as auth.update-profile.',
        body: ProfileBody,
        response: { 200: data(ProfileSchema) },
      },
    },
    async (req) => {
      const id = req.auth.id;
      return {
        data: await transact(db, async (trx) => {
          const before = await trx
            .selectFrom('users')
            .select(['id', 'username', 'nickname', 'email', 'phone'])
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
          const changes = changesOf(before, req.body);
          if (Object.keys(changes).length === 0) return before;
          await trx
            .updateTable('users')
            .set({ ...req.body, updated_at: nowIso() })
            .where('id', '=', id)
            .execute();
          await app.audit(req, 'auth.update-profile', 'user', id, { username: before.username, changes }, trx);
          return { ...before, ...req.body };
        }),
      };
    },
  );
}
