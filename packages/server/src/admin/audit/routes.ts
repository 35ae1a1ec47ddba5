import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { sendCsv, type CsvColumn } from '../../shared/csv.js';
import { exportTime, zhName } from '../../shared/export-format.js';
import { AUDIT_ACTIONS, AUDIT_TARGETS } from './actions.js';
import { EXPORT_LIMIT, offsetOf } from '../shared/query.js';
import { CsvResponse, PagedSchema, SYSTEM_TAG } from '../shared/schemas.js';
import { auditRepository as repo } from './repository.js';
import { AuditEntrySchema, AuditExportQuery, AuditQuery, type AuditEntry } from './schemas.js';
import { MENUS } from '../../catalogue/index.js';

const MENU = MENUS.audit.code;
const tags = [SYSTEM_TAG];

const CSV_COLUMNS: CsvColumn<AuditEntry>[] = [
  { header: '时间', value: (e) => exportTime(e.createdAt) },
  { header: '操作人', value: (e) => e.actorUsername },
  { header: '动作', value: (e) => zhName(AUDIT_ACTIONS, e.action) },
  { header: '对象类型', value: (e) => zhName(AUDIT_TARGETS, e.targetType) },
  { header: '对象', value: (e) => e.targetName },
  { header: '来源地址', value: (e) => e.ip },
  { header: '详情', value: (e) => (typeof e.detail === 'string' ? e.detail : JSON.stringify(e.detail)) },
  { header: '操作人编号', value: (e) => e.actorId },
  { header: '对象编号', value: (e) => e.targetId },
];

/** /api/audit-logs — who did what to which record, when, from where (menu system:audit). Read-only. */
export default async function auditRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.db.kysely;

  app.get(
    '/',
    {
      config: { auth: { menu: MENU, bits: ['SEARCH'] } },
      schema: {
        tags,
        summary: '查询审计日志 Search the audit log',
        description:
          'Newest first. Filters combine: keyword, exact action, actorId, and a time window from/to (ISO dates or instants).',
        querystring: AuditQuery,
        response: { 200: PagedSchema(AuditEntrySchema) },
      },
    },
    async (req) => {
      const q = req.query;
      return { data: { ...(await repo.list(db, q, q.pageSize, offsetOf(q))), page: q.page, pageSize: q.pageSize } };
    },
  );

  app.get(
    '/export',
    {
      config: { auth: { menu: MENU, bits: ['EXPORT'] } },
      schema: {
        tags,
        summary: '导出审计日志（CSV） Export the audit log as CSV',
        description:
          'Same filters as the search, without paging; the newest 50 000 rows at most (`X-Export-Truncated: true` when cut).',
        querystring: AuditExportQuery,
        response: { 200: CsvResponse },
      },
    },
    async (req, reply) => {
      const { items, total } = await repo.list(db, req.query, EXPORT_LIMIT, 0);
      await app.audit(req, 'audit.export', 'audit-log', null, { count: items.length, filter: req.query });
      return sendCsv(reply, { title: '审计日志', ascii: 'audit-logs' }, CSV_COLUMNS, items, total > items.length);
    },
  );
}
