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

/** A new password: the length bound here; PASSWORD_MIN_LENGTH and PASSWORD_MIN_SCORE are checked by password-policy.ts. */
export const PasswordPolicy = Type.String({
  minLength: 1,
  maxLength: 128,
  description:
    'At most 128 characters, at least PASSWORD_MIN_LENGTH (8 by default), with a zxcvbn score of at least PASSWORD_MIN_SCORE (3 by default); a weaker one is 400 with Chinese advice',
});

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
