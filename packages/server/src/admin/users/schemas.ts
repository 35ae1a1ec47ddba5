import { Type, type Static } from '@sinclair/typebox';
import { PasswordPolicy, RoleRefSchema } from '../auth/schemas.js';
import { DeniedReason, PageFields, StatusSchema, Timestamp } from '../shared/schemas.js';

export const Username = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: '^[A-Za-z0-9_.-]+$',
  'x-hint': '3 至 32 个字符，只含字母、数字、_ . -',
  examples: ['zhang.san'],
});
export const Nickname = Type.String({ maxLength: 64, examples: ['张三'] });
const RoleIds = Type.Array(Type.String({ format: 'uuid' }), {
  maxItems: 50,
  description: 'Role ids (duplicates ignored)',
});

export const UserSchema = Type.Object({
  id: Type.String(),
  username: Type.String(),
  nickname: Type.String(),
  status: StatusSchema,
  roles: Type.Array(RoleRefSchema, { description: 'Every role the user holds, enabled or not' }),
  totpEnabled: Type.Boolean({
    description: 'Whether the user signs in with a TOTP code (POST /api/users/{id}/reset-totp removes it)',
  }),
  passkeys: Type.Integer({
    minimum: 0,
    description: 'How many passkeys the user has (POST /api/users/{id}/reset-totp removes them too)',
  }),
  deniedReason: DeniedReason,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type UserDto = Static<typeof UserSchema>;

export const UserFilter = Type.Object({ ...PageFields, status: Type.Optional(StatusSchema) });
export const UserExportQuery = Type.Object({ keyword: PageFields.keyword, status: Type.Optional(StatusSchema) });
export type UserFilterQuery = Static<typeof UserExportQuery>;

export const CreateUserBody = Type.Object(
  {
    username: Username,
    nickname: Type.Optional(Nickname),
    password: PasswordPolicy,
    status: Type.Optional(StatusSchema),
    roleIds: Type.Optional(RoleIds),
  },
  { additionalProperties: false },
);

export const UpdateUserBody = Type.Object(
  { username: Type.Optional(Username), nickname: Type.Optional(Nickname), status: Type.Optional(StatusSchema) },
  { additionalProperties: false, minProperties: 1, 'x-hint': '至少包含 username、nickname、status 之一' },
);

export const ResetPasswordBody = Type.Object({ password: PasswordPolicy }, { additionalProperties: false });
export const SetRolesBody = Type.Object({ roleIds: RoleIds }, { additionalProperties: false });

export const UnlockResultSchema = Type.Object({
  cleared: Type.Integer({ description: 'Sign-in failure counters removed (0: the user was not held back)' }),
});
