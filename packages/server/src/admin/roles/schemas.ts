import { Type, type Static } from '@sinclair/typebox';
import { MaskSchema } from '../auth/schemas.js';
import { DeniedReason, PageFields, StatusSchema, Timestamp } from '../shared/schemas.js';

const RoleCode = Type.String({
  pattern: '^[a-z][a-z0-9_:-]{1,31}$',
  'x-hint': '2 至 32 个字符：小写字母开头，只含小写字母、数字、_ : -',
  examples: ['auditor'],
});
const RoleName = Type.String({ minLength: 1, maxLength: 64, examples: ['审计员'] });
const Description = Type.String({ maxLength: 255 });
const RequireTotp = Type.Boolean({
  description: 'Members must sign in with a TOTP code; only a super administrator may change it (403 otherwise)',
});
const Sort = Type.Integer({ minimum: 0, maximum: 100000, description: 'Ascending order in lists' });

export const RoleSchema = Type.Object({
  id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  description: Type.String(),
  status: StatusSchema,
  sort: Type.Integer(),
  requireTotp: Type.Boolean({ description: 'Members must sign in with a TOTP code (set by a super administrator)' }),
  deniedReason: DeniedReason,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const GrantSchema = Type.Object({
  menuId: Type.String(),
  menuCode: Type.String(),
  bits: MaskSchema,
});

export const RoleDetailSchema = Type.Intersect([RoleSchema, Type.Object({ grants: Type.Array(GrantSchema) })]);

export const RoleFilter = Type.Object({ ...PageFields, status: Type.Optional(StatusSchema) });
export const RoleExportQuery = Type.Object({ keyword: PageFields.keyword, status: Type.Optional(StatusSchema) });

export const CreateRoleBody = Type.Object(
  {
    code: RoleCode,
    name: RoleName,
    description: Type.Optional(Description),
    status: Type.Optional(StatusSchema),
    sort: Type.Optional(Sort),
    requireTotp: Type.Optional(RequireTotp),
  },
  { additionalProperties: false },
);

export const UpdateRoleBody = Type.Object(
  {
    code: Type.Optional(RoleCode),
    name: Type.Optional(RoleName),
    description: Type.Optional(Description),
    status: Type.Optional(StatusSchema),
    sort: Type.Optional(Sort),
    requireTotp: Type.Optional(RequireTotp),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    'x-hint': '至少包含 code、name、description、status、sort、requireTotp 之一',
  },
);

/** `bits` may be a number or a string of digits (a 64-bit value does not fit a JSON number); checked by parseGrantBits. */
export const SetGrantsBody = Type.Object(
  {
    grants: Type.Array(
      Type.Object(
        {
          menuId: Type.String({ format: 'uuid' }),
          // String first: with ajv's type coercion a digit string stays exact instead of becoming a lossy double.
          bits: Type.Union([Type.String({ maxLength: 20 }), Type.Integer()], {
            description: 'OR of permission points (0–1023); 0 makes the menu visible with no action allowed',
            examples: [1, 517],
          }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 500 },
    ),
  },
  { additionalProperties: false },
);

export type CreateRoleInput = Static<typeof CreateRoleBody>;
export type UpdateRoleInput = Static<typeof UpdateRoleBody>;
export type GrantInput = Static<typeof SetGrantsBody>['grants'][number];
