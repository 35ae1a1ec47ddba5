import { Type } from '@sinclair/typebox';

export const RoleRefSchema = Type.Object({ id: Type.String(), code: Type.String(), name: Type.String() });

/** A mask in a response: an integer; the super administrator's is 9223372036854775807 written as exact digits. */
/**
 * A permission mask on the way out: JSON integer, carried as a bigint when it does not fit a double (the super
 * administrator's all-ones, see normalizeMask), which the serialiser writes as exact digits. Hence the static type.
 */
export const MaskSchema = Type.Unsafe<number | bigint>(
  Type.Integer({
    description:
      'Permission mask. The super administrator holds all ones, shown as 9223372036854775807 (2^63-1) — parse it as a 64-bit integer, not a double.',
    examples: [5, '9223372036854775807'],
  }),
);

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

const MustChangePassword = Type.Boolean({
  description:
    'The password was generated or set by an operator: until PUT /api/auth/password, other admin routes answer 403 PASSWORD_CHANGE_REQUIRED',
});

/** The login result: the contract's pair and user, plus what the account must do first. */
export const LoginResultSchema = Type.Object({
  accessToken: Type.String(),
  refreshToken: Type.String(),
  user: UserSummarySchema,
  mustChangePassword: MustChangePassword,
  securityNotice: Type.Optional(
    Type.String({
      description:
        'Present after wrong second-step codes since the last sign-in (someone may hold the password): show it to the user',
    }),
  ),
  recoveryCodesLeft: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        'Present after a sign-in with a recovery code: how many unused recovery codes the account has left (show it; at 0 only new codes or an operator’s reset help)',
    }),
  ),
});

/** The login answer for an account with TOTP: send the code with the token to POST /api/auth/login/totp. */
export const MfaChallengeSchema = Type.Object({
  mfaRequired: Type.Literal(true),
  mfaToken: Type.String({ description: 'Signed, valid for 5 minutes; proves the password only' }),
});

/**
 * POST /api/auth/login answers either the login result or the challenge. One object with optional fields rather
 * than a union: the serializer would have to validate the mask against each branch to pick one, and the super
 * administrator's 2^63-1 is no JSON-safe integer.
 */
export const LoginAnswerSchema = Type.Object(
  {
    ...Type.Partial(LoginResultSchema).properties,
    ...Type.Partial(MfaChallengeSchema).properties,
  },
  { description: 'Either {accessToken, refreshToken, user, mustChangePassword} or {mfaRequired: true, mfaToken}' },
);

export const LoginTotpBody = Type.Object(
  {
    mfaToken: Type.String({ minLength: 1, maxLength: 4096 }),
    code: Type.String({
      minLength: 6,
      maxLength: 16,
      description: 'The 6-digit code of the authenticator app, or one of the recovery codes (xxxxx-xxxxx)',
    }),
  },
  { additionalProperties: false },
);

export const TotpCodeBody = Type.Object(
  { code: Type.String({ minLength: 6, maxLength: 16, description: 'The 6-digit code the authenticator shows' }) },
  { additionalProperties: false },
);

export const TotpEnableBody = Type.Object(
  {
    code: TotpCodeBody.properties.code,
    signOutOthers: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Also sign out every other device of the account (a password that may have leaked no longer keeps them signed in)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** How one proves to be the account's owner: the current password, or (with TOTP on) a 6-digit or recovery code. */
export const IdentityProofBody = Type.Object(
  {
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    code: Type.Optional(Type.String({ minLength: 6, maxLength: 16 })),
  },
  { additionalProperties: false, minProperties: 1, 'x-hint': '提供 password（当前密码）或 code（验证码或恢复码）' },
);

export const TotpSetupSchema = Type.Object({
  secret: Type.String({ description: 'Base32 secret, for typing into an authenticator by hand' }),
  otpauthUri: Type.String({ description: 'otpauth://totp/… URI (SHA1, 6 digits, 30 s)' }),
  qrDataUrl: Type.String({ description: 'The URI as a QR code: data:image/png;base64,…' }),
});

/** What /me adds about the account's security state. */
export const AccountStateSchema = Type.Object({
  mustChangePassword: MustChangePassword,
  totpEnabled: Type.Boolean({ description: 'TOTP two-step sign-in is enabled' }),
  totpRequired: Type.Boolean({
    description:
      'A role requires two-step sign-in; while TOTP is not enabled and this session was not opened with a passkey, admin routes answer 403 TOTP_SETUP_REQUIRED',
  }),
  passkeyVerified: Type.Boolean({
    description: 'This session was opened with a passkey: it satisfies a role’s two-step requirement without TOTP',
  }),
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
