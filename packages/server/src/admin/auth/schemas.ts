import { Type } from '@sinclair/typebox';

export const RoleRefSchema = Type.Object({ id: Type.String(), code: Type.String(), name: Type.String() });

/** A mask in a response: an integer; the super administrator's is 9223372036854775807 written as exact digits. */
export const MaskSchema = Type.Integer({
  description:
    'Permission mask. The super administrator holds all ones, shown as 9223372036854775807 (2^63-1) — parse it as a 64-bit integer, not a double.',
  examples: [5, '9223372036854775807'],
});

export const UserSummarySchema = Type.Object({
  id: Type.String(),
  username: Type.String(),
  nickname: Type.String(),
  roles: Type.Array(RoleRefSchema),
  permissions: MaskSchema,
});

export const TokenPairSchema = Type.Object({
  accessToken: Type.String({ description: 'JWT (HS256), short-lived; send as `Authorization: Bearer …`' }),
  refreshToken: Type.String({ description: 'JWT (HS256), long-lived, single use: every refresh rotates it' }),
});

export const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64 }),
    password: Type.String({ minLength: 1, maxLength: 128 }),
  },
  { additionalProperties: false },
);

export const RefreshBody = Type.Object(
  { refreshToken: Type.String({ minLength: 1, maxLength: 4096 }) },
  { additionalProperties: false },
);
export const LogoutBody = Type.Object(
  { refreshToken: Type.Optional(Type.String({ maxLength: 4096 })) },
  { additionalProperties: false },
);

export const PasswordPolicy = Type.String({ minLength: 8, maxLength: 128, description: '8 to 128 characters' });

export const ChangePasswordBody = Type.Object(
  { oldPassword: Type.String({ minLength: 1, maxLength: 128 }), newPassword: PasswordPolicy },
  { additionalProperties: false },
);

export interface MenuNodeStatic {
  id: string;
  parentId: string | null;
  code: string;
  name: string;
  path: string;
  icon: string;
  sort: number;
  kind: string;
  target: string;
  permissions: number | bigint;
  children: MenuNodeStatic[];
}

export const MenuNodeSchema = Type.Recursive(
  (Self) =>
    Type.Object({
      id: Type.String(),
      parentId: Type.Union([Type.String(), Type.Null()]),
      code: Type.String(),
      name: Type.String(),
      path: Type.String(),
      icon: Type.String(),
      sort: Type.Integer(),
      permissions: MaskSchema,
      kind: Type.Union([Type.Literal('directory'), Type.Literal('page'), Type.Literal('link'), Type.Literal('embed')], {
        description: 'What the menu opens (see POST /api/menus)',
      }),
      target: Type.String({ description: 'page: the built-in menu whose page it shows; link, embed: the URL' }),
      children: Type.Array(Self),
    }),
  { $id: 'MenuNode' },
);

export const PermissionPointSchema = Type.Object({
  value: Type.String(),
  label: Type.String(),
  bits: Type.Integer(),
  icon: Type.String(),
});

export const data = <T extends import('@sinclair/typebox').TSchema>(schema: T) => Type.Object({ data: schema });
