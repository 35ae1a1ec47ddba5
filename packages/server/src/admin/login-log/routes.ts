import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { sendCsv, type CsvColumn } from '../../shared/csv.js';
import { exportTime, zhName } from '../../shared/export-format.js';
import { CLIENT_KIND_NAMES } from '../sessions/device.js';
import { LOGIN_EVENT_NAMES, LOGIN_REASON_NAMES, LOGIN_RESULT_NAMES } from './names.js';
import { EXPORT_LIMIT, offsetOf } from '../shared/query.js';
import { CsvResponse, PagedSchema, SYSTEM_TAG } from '../shared/schemas.js';
import { withLocation } from '../shared/location.js';
import { loginLogRepository as repo } from './repository.js';
import { LoginLogEntrySchema, LoginLogExportQuery, LoginLogQuery, type LoginLogEntry } from './schemas.js';
import { MENUS } from '../../catalogue/index.js';

const MENU = MENUS.loginLogs.code;
const tags = [SYSTEM_TAG];

const CSV_COLUMNS: CsvColumn<LoginLogEntry>[] = [
  { header: '时间', value: (e) => exportTime(e.createdAt) },
  { header: '用户', value: (e) => e.username },
  { header: '事件', value: (e) => zhName(LOGIN_EVENT_NAMES, e.event) },
  { header: '结果', value: (e) => zhName(LOGIN_RESULT_NAMES, e.result) },
  { header: '原因', value: (e) => zhName(LOGIN_REASON_NAMES, e.reason) },
  { header: '操作人', value: (e) => e.actorUsername },
  { header: '地址', value: (e) => e.ip },
  { header: '登录地点', value: (e) => e.location.zh },
  { header: '设备', value: (e) => e.deviceLabel },
  { header: '客户端', value: (e) => zhName(CLIENT_KIND_NAMES, e.clientKind) },
  { header: '浏览器标识', value: (e) => e.userAgent },
  { header: '会话编号', value: (e) => e.sessionId },
  { header: '用户编号', value: (e) => e.userId },
];

/** /api/login-logs — sign-in attempts, sign-outs and session ends (menu system:login-log 登录日志). Read-only. */
export default async function loginLogRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.db.kysely;

  app.get(
    '/',
    {
      config: { auth: { menu: MENU, bits: ['SEARCH'] } },
      schema: {
        tags,
        summary: '查询登录日志 Search the login log',
        description:
          'Newest first. Filters combine: keyword (username as typed), userId, ip (prefix), event, result, and a time window from/to.',
        querystring: LoginLogQuery,
        response: { 200: PagedSchema(LoginLogEntrySchema) },
      },
    },
    async (req) => {
      const q = req.query;
      const { items, total } = await repo.list(db, q, q.pageSize, offsetOf(q));
      return { data: { items: withLocation(items, app.ipLookup.place), total, page: q.page, pageSize: q.pageSize } };
    },
  );

  app.get(
    '/export',
    {
      config: { auth: { menu: MENU, bits: ['EXPORT'] } },
      schema: {
        tags,
        summary: '导出登录日志（CSV） Export the login log as CSV',
        description:
          'Same filters as the search, without paging; the newest 50 000 rows at most (`X-Export-Truncated: true` when cut).',
        querystring: LoginLogExportQuery,
        response: { 200: CsvResponse },
      },
    },
    async (req, reply) => {
      const { items, total } = await repo.list(db, req.query, EXPORT_LIMIT, 0);
      await app.audit(req, 'login-log.export', 'login-log', null, { count: items.length, filter: req.query });
      const rows = withLocation(items, app.ipLookup.place);
      return sendCsv(reply, { title: '登录日志', ascii: 'login-logs' }, CSV_COLUMNS, rows, total > items.length);
    },
  );
}
