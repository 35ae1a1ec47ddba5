import { Type, type TSchema } from '@sinclair/typebox';

/** OpenAPI tag of every users / roles / menus / audit-log route. */
export const SYSTEM_TAG = '系统管理 System';

export const StatusSchema = Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
  description: 'enabled or disabled',
});

/** The names of a user's or a role's status (generated into `@tianji/client`). */
export const STATUS_NAMES = {
  enabled: { zh: '启用', en: 'Enabled' },
  disabled: { zh: '停用', en: 'Disabled' },
} as const;

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'Record id (UUID)' }) });

/** Body of every batch delete: 1 to 100 ids (duplicates are ignored). */
export const IdsBody = Type.Object(
  { ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 100, description: '1 to 100 ids' }) },
  { additionalProperties: false },
);

/** Paging fields shared by every list: `page` ≥ 1, `pageSize` 1–100 (default 20), optional `keyword`. */
export const PageFields = {
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1' }),
  pageSize: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page, 1 to 100' }),
  keyword: Type.Optional(Type.String({ maxLength: 100, description: 'Case-insensitive substring' })),
};

export interface PageQuery {
  page: number;
  pageSize: number;
  keyword?: string;
}

export const Timestamp = Type.String({ description: 'ISO 8601 UTC', examples: ['2026-01-31T08:00:00.000Z'] });

/** `{data:{items, total, page, pageSize}}` */
export const PagedSchema = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Object({
      items: Type.Array(item),
      total: Type.Integer(),
      page: Type.Integer(),
      pageSize: Type.Integer(),
    }),
  });

export const DeletedSchema = Type.Object({
  data: Type.Object({ deleted: Type.Integer({ description: 'How many records were deleted' }) }),
});

export const NoContent = Type.Null({ description: 'Done' });

/** The 200 response of a CSV export, documented with its media type. */
export const CsvResponse = {
  description: 'CSV, UTF-8 with a byte-order mark (Excel opens Chinese text correctly); sent as an attachment',
  content: { 'text/csv': { schema: Type.String() } },
};

/** A 400 in the same wording as schema validation errors (defined with the other error builders). */
export { fieldError } from '../../errors.js';

/**
 * On list and detail rows of users and roles: why the signed-in actor may not act on this row (the message a write
 * would be refused with, 403 PRIVILEGE_ESCALATION); absent when it may. Clients disable the controls and show it.
 */
export const DeniedReason = Type.Optional(
  Type.String({
    description:
      'Why you may not edit, disable, delete, reset, re-role or re-grant this row (it holds permissions you lack); absent when you may',
  }),
);
