import { Type, type Static } from '@sinclair/typebox';
import type { LibraryDef } from '../catalogue/content-libraries.js';

/** Request and response shapes of the content admin routes (routes.ts); one library's item shape is its own schema. */

export const TAG = '内容管理 Content';
export const Paging = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
  pageSize: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  keyword: Type.Optional(Type.String({ maxLength: 100 })),
});
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const Ids = Type.Object(
  { ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 500 }) },
  { additionalProperties: false },
);
export const ImportBody = Type.Object(
  {
    format: Type.Union([Type.Literal('json'), Type.Literal('csv')], {
      description: 'json: an array of items; csv: a header row with the item fields',
    }),
    content: Type.String({ minLength: 1, maxLength: 5 * 1024 * 1024 }),
  },
  { additionalProperties: false },
);
export const RowError = Type.Object({ row: Type.Integer(), field: Type.String(), message: Type.String() });
// `errors` only when rows were checked: a body that fails before that (schema, NUL bytes) has the plain admin error shape.
export const ImportErrorSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  errors: Type.Optional(Type.Array(RowError)),
});
export const MAX_IMPORT_ROWS = 20000;

/** One stored item as the admin API answers it: the library's fields plus id and timestamps. */
export const itemSchema = (lib: LibraryDef) =>
  Type.Intersect([Type.Object({ id: Type.String(), createdAt: Type.String(), updatedAt: Type.String() }), lib.schema]);
export const ExportQuery = Type.Object({
  format: Type.Union([Type.Literal('csv'), Type.Literal('json')], { default: 'csv' }),
  keyword: Type.Optional(Type.String({ maxLength: 100 })),
});

export type RowProblem = Static<typeof RowError>;
