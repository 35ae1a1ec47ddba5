import { transact } from '../db/transaction.js';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../errors.js';
import { LIBRARIES, type LibraryDef } from '../catalogue/content-libraries.js';
import { contentMenuCode } from '../catalogue/index.js';
import { ContentRepository } from './repository.js';
import { sendCsv } from '../shared/csv.js';
import { contentDisposition } from '../shared/export-format.js';
import { ExportQuery, IdParams, Ids, ImportBody, ImportErrorSchema, itemSchema, Paging, TAG } from './schemas.js';
import { ContentService, outward } from './service.js';

/** The admin routes of one library: list, get, create, edit, delete, batch delete, export, import. */
function libraryRoutes(lib: LibraryDef) {
  const menu = contentMenuCode(lib.name);
  const columns = Object.keys(lib.schema.properties);

  return async (parent: FastifyInstance) => {
    const app = parent.withTypeProvider<TypeBoxTypeProvider>();
    const repo = new ContentRepository(app.db.kysely);
    const service = new ContentService(lib, repo);
    const store = app.content;
    const schema = <S extends object>(extra: S) => ({ tags: [TAG], ...extra });

    app.get(
      '/',
      {
        config: { auth: { menu, bits: ['SEARCH'] } },
        schema: schema({
          summary: `列出${lib.label} List ${lib.label}`,
          querystring: Paging,
          response: {
            200: Type.Object({
              data: Type.Object({
                items: Type.Array(itemSchema(lib)),
                total: Type.Integer(),
                page: Type.Integer(),
                pageSize: Type.Integer(),
              }),
            }),
          },
        }),
      },
      async (req) => {
        const q = req.query;
        const { items, total } = await repo.list(lib, q);
        return { data: { items: items.map(outward), total, page: q.page, pageSize: q.pageSize } };
      },
    );

    app.get(
      '/export',
      {
        config: { auth: { menu, bits: ['EXPORT'] } },
        schema: schema({
          summary: `导出${lib.label}（带 BOM 的 CSV 或 JSON） Export ${lib.label} (CSV with BOM, or JSON)`,
          querystring: ExportQuery,
        }),
      },
      async (req, reply) => {
        const q = req.query;
        const items = await repo.all(lib, q.keyword);
        const fileName = { title: lib.label, ascii: lib.name };
        await app.audit(req, 'content.export', lib.name, null, { count: items.length, format: q.format });
        if (q.format === 'json') {
          reply.header('content-disposition', contentDisposition(fileName, 'json'));
          return reply.type('application/json; charset=utf-8').send(
            JSON.stringify(
              items.map((i) => ({ id: i.id, ...i.data })),
              null,
              2,
            ),
          );
        }
        const cell = (v: unknown) =>
          v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : (v as string | number);
        // The headers stay the field names: the file imports back as it is (hardening-csv.test.ts).
        return sendCsv(
          reply,
          fileName,
          ['id', ...columns].map((c) => ({ header: c, value: (r: Record<string, unknown>) => cell(r[c]) })),
          items.map((i) => ({ id: i.id, ...i.data })),
        );
      },
    );

    app.get(
      '/:id',
      {
        config: { auth: { menu, bits: ['SEARCH'] } },
        schema: schema({
          summary: `查看一条${lib.label} Get one ${lib.label} item`,
          params: IdParams,
          response: { 200: Type.Object({ data: itemSchema(lib) }) },
        }),
      },
      async (req) => {
        const item = await repo.get(lib, req.params.id);
        if (!item) throw notFound({ zh: `${lib.label}条目`, en: `${lib.name} item` });
        return { data: outward(item) };
      },
    );

    app.post(
      '/',
      {
        config: { auth: { menu, bits: ['ADD'] } },
        schema: schema({
          summary: `新增一条${lib.label} Add a ${lib.label} item`,
          body: lib.schema,
          response: { 201: Type.Object({ data: itemSchema(lib) }) },
        }),
      },
      async (req, reply) => {
        const data = req.body;
        service.assertClean(data);
        await service.assertUnique(data);
        const [id] = await repo.insertMany(lib, [data]);
        await app.audit(req, 'content.create', lib.name, id);
        await store.changed(lib.name);
        return reply.code(201).send({ data: outward((await repo.get(lib, id))!) });
      },
    );

    app.put(
      '/:id',
      {
        config: { auth: { menu, bits: ['EDIT'] } },
        schema: schema({
          summary: `编辑一条${lib.label}（整条替换） Edit a ${lib.label} item (full replacement)`,
          params: IdParams,
          body: lib.schema,
          response: { 200: Type.Object({ data: itemSchema(lib) }) },
        }),
      },
      async (req) => {
        const { id } = req.params;
        const data = req.body;
        service.assertClean(data);
        await service.assertUnique(data, id);
        if (!(await repo.update(lib, id, data))) throw notFound({ zh: `${lib.label}条目`, en: `${lib.name} item` });
        await app.audit(req, 'content.update', lib.name, id);
        await store.changed(lib.name);
        return { data: outward((await repo.get(lib, id))!) };
      },
    );

    app.delete(
      '/:id',
      {
        config: { auth: { menu, bits: ['DELETE'] } },
        schema: schema({ summary: `删除一条${lib.label} Delete a ${lib.label} item`, params: IdParams }),
      },
      async (req, reply) => {
        const { id } = req.params;
        if ((await repo.deleteMany(lib, [id])) === 0)
          throw notFound({ zh: `${lib.label}条目`, en: `${lib.name} item` });
        await app.audit(req, 'content.delete', lib.name, id);
        await store.changed(lib.name);
        return reply.code(204).send();
      },
    );

    app.post(
      '/batch-delete',
      {
        config: { auth: { menu, bits: ['BATCH_DELETE'] } },
        schema: schema({
          summary: `批量删除${lib.label} Delete several ${lib.label} items`,
          body: Ids,
          response: { 200: Type.Object({ data: Type.Object({ deleted: Type.Integer() }) }) },
        }),
      },
      async (req) => {
        const { ids } = req.body;
        const deleted = await repo.deleteMany(lib, ids);
        await app.audit(req, 'content.batch-delete', lib.name, null, { ids, deleted });
        await store.changed(lib.name);
        return { data: { deleted } };
      },
    );

    app.post(
      '/import',
      {
        bodyLimit: 6 * 1024 * 1024,
        config: { auth: { menu, bits: ['ADD'] } },
        schema: schema({
          summary: `批量导入${lib.label}（JSON 或 CSV） Bulk import ${lib.label} (JSON or CSV)`,
          description:
            'All or nothing: every row is validated first; any malformed row (or a duplicate) rejects the whole file with a per-row error list, and nothing is imported.',
          body: ImportBody,
          response: { 200: Type.Object({ data: Type.Object({ imported: Type.Integer() }) }), 400: ImportErrorSchema },
        }),
      },
      async (req, reply) => {
        const { format, content } = req.body;
        const read = await service.readImport(format, content);
        if (!('rows' in read)) return reply.code(400).send({ code: 'VALIDATION_ERROR', ...read });
        const { rows } = read;
        await transact(app.db.kysely, async (trx) => {
          await repo.insertMany(lib, rows, trx);
          await app.audit(req, 'content.import', lib.name, null, { format, count: rows.length }, trx);
        });
        await store.changed(lib.name);
        return { data: { imported: rows.length } };
      },
    );
  };
}

/** Mounts every library's admin routes under /api/admin/content/<library>. */
export default async function contentRoutes(app: FastifyInstance) {
  for (const lib of LIBRARIES) await app.register(libraryRoutes(lib), { prefix: `/${lib.name}` });
}
