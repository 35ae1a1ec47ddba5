import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { LOOKUP_GROUPS, type LookupGroup } from '../../catalogue/lookup-groups.js';
import { PageFields, Timestamp } from '../shared/schemas.js';
import { MENUS } from '../../catalogue/index.js';
import type { AuthDeclaration } from '../auth/guard.js';

/** Who may list and read the keys (SEARCH on 接口密钥): the usage report by caller names keys to them only. */
export const KEY_READERS = { menu: MENUS.apiKeys.code, bits: ['SEARCH'] } satisfies AuthDeclaration;

/** OpenAPI tag of the API key routes (under 监控, as the menu is). */
export const API_KEYS_TAG = '接口密钥 API keys';

export const ApiKeyStatusSchema = Type.Union(
  [Type.Literal('active'), Type.Literal('revoked'), Type.Literal('expired')],
  {
    description: 'active, revoked (by an operator) or expired (past expiresAt)',
  },
);

/** Names of a key's status (generated into `@tianji/client`): every client and the export say 有效, 已吊销, 已过期. */
export const API_KEY_STATUS_NAMES = {
  active: { zh: '有效', en: 'Active' },
  revoked: { zh: '已吊销', en: 'Revoked' },
  expired: { zh: '已过期', en: 'Expired' },
} as const satisfies Record<Static<typeof ApiKeyStatusSchema>, { zh: string; en: string }>;

const GROUP_NAMES = Object.keys(LOOKUP_GROUPS) as LookupGroup[];
const Group = Type.Union(
  GROUP_NAMES.map((g) => Type.Literal(g)),
  { description: `A public endpoint group: ${GROUP_NAMES.join(', ')}` },
);
const Nullable = <T extends TSchema>(t: T, description: string) => Type.Union([Type.Null(), t], { description });

const Groups = Nullable(
  Type.Array(Group, { maxItems: 20, uniqueItems: true }),
  'Endpoint groups the key may call; null: all',
);
const Origins = Nullable(
  Type.Array(
    Type.String({
      pattern: '^https?://[^/\\s]+$',
      maxLength: 200,
      'x-hint': '网页来源，形如 https://example.com（协议 + 主机 [+ 端口]，不带路径）',
    }),
    { maxItems: 50, uniqueItems: true },
  ),
  'Browser origins (the Origin header) allowed to use the key; null: any. With a list, a request without Origin is refused',
);
const Addresses = Nullable(
  Type.Array(
    Type.String({
      maxLength: 64,
      'x-hint': 'IP 地址或网段，例如 203.0.113.7、10.0.0.0/8、2001:db8::/32',
    }),
    { maxItems: 50, uniqueItems: true },
  ),
  'Caller addresses (IPs or CIDRs, v4 or v6) allowed to use the key; null: any',
);
const PerMinute = Nullable(
  Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  'Requests per minute; null: the server default (API_KEY_RATE_PER_MINUTE)',
);
const PerDay = Nullable(
  Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
  'Requests per day (Beijing time); null: the server default (API_KEY_RATE_PER_DAY)',
);
const ExpiresAt = Nullable(
  Type.String({ format: 'date-time', 'x-hint': 'ISO 8601 时间，例如 2027-01-01T00:00:00Z' }),
  'When the key stops working; null: never',
);
const Name = Type.String({ minLength: 1, maxLength: 64, examples: ['合作方 A 的小程序'] });
const Note = Nullable(Type.String({ maxLength: 255 }), 'Who owns the key, what it is for');

export const ApiKeySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  note: Type.Union([Type.String(), Type.Null()]),
  prefix: Type.String({
    description: 'The first 8 characters after tj_: show as tj_ab12cd34…',
    examples: ['ab12cd34'],
  }),
  status: ApiKeyStatusSchema,
  createdBy: Type.Union([Type.Object({ id: Type.String(), username: Type.String() }), Type.Null()]),
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()], {
    description: 'Written with the usage counts (every USAGE_FLUSH_INTERVAL), not at every request',
  }),
  expiresAt: Type.Union([Timestamp, Type.Null()]),
  revokedAt: Type.Union([Timestamp, Type.Null()]),
  perMinute: Type.Union([Type.Integer(), Type.Null()], { description: 'null: the server default' }),
  perDay: Type.Union([Type.Integer(), Type.Null()], { description: 'null: the server default' }),
  groups: Type.Union([Type.Array(Type.String()), Type.Null()]),
  origins: Type.Union([Type.Array(Type.String()), Type.Null()]),
  addresses: Type.Union([Type.Array(Type.String()), Type.Null()]),
  graceUntil: Type.Union([Timestamp, Type.Null()], {
    description: 'After a rotation: the previous secret keeps working until then',
  }),
});

export const ApiKeyFilter = Type.Object({ ...PageFields, status: Type.Optional(ApiKeyStatusSchema) });
export const ApiKeyExportQuery = Type.Object({
  keyword: PageFields.keyword,
  status: Type.Optional(ApiKeyStatusSchema),
});

const fields = {
  note: Type.Optional(Note),
  expiresAt: Type.Optional(ExpiresAt),
  perMinute: Type.Optional(PerMinute),
  perDay: Type.Optional(PerDay),
  groups: Type.Optional(Groups),
  origins: Type.Optional(Origins),
  addresses: Type.Optional(Addresses),
};

export const CreateApiKeyBody = Type.Object({ name: Name, ...fields }, { additionalProperties: false });

export const UpdateApiKeyBody = Type.Object(
  { name: Type.Optional(Name), ...fields },
  {
    additionalProperties: false,
    minProperties: 1,
    'x-hint': '至少包含 name、note、expiresAt、perMinute、perDay、groups、origins、addresses 之一',
  },
);

export const RotateBody = Type.Object(
  {
    graceMinutes: Type.Integer({
      minimum: 0,
      maximum: 10080,
      description: 'Minutes the previous secret keeps working (0 to 10080, a week); 0: refused at once',
    }),
  },
  { additionalProperties: false },
);

const POLICY_DESCRIPTION = 'Endpoint groups an anonymous caller may not call (401 API_KEY_REQUIRED)';
export const PolicyBody = Type.Object(
  { requireKeyGroups: Type.Array(Group, { uniqueItems: true, description: POLICY_DESCRIPTION }) },
  { additionalProperties: false },
);
export const PolicySchema = Type.Object({
  requireKeyGroups: Type.Array(Type.String(), { description: POLICY_DESCRIPTION }),
});

export type CreateApiKeyInput = Static<typeof CreateApiKeyBody>;
export type UpdateApiKeyInput = Static<typeof UpdateApiKeyBody>;
export type ApiKeyStatus = Static<typeof ApiKeyStatusSchema>;
