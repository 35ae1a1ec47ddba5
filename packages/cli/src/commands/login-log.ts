/** login-log list — a thin command over GET /api/login-logs (newer than the generated types, hence raw fetch). */
import { CLIENT_KIND_NAMES, LOGIN_EVENT_NAMES, LOGIN_REASON_NAMES, beijingTime } from '@tianji/client';
import type { Command } from 'commander';
import { lang } from '../config.js';
import { action, positiveInt, raw } from '../context.js';
import { nameIn, table } from '../output.js';

type Entry = {
  createdAt: string;
  username: string;
  event: string;
  result: string;
  reason: string;
  ip: string;
  location?: { zh: string; en: string };
  deviceLabel: string;
  clientKind: string;
};

const TEXT = {
  zh: {
    headers: ['时间', '用户名', '事件', '结果', '原因', '地址', '登录地点', '设备'],
    result: { success: '成功', failure: '失败' } as Record<string, string>,
    page: (p: number, total: number) => `第 ${p} 页，共 ${total} 条`,
  },
  en: {
    headers: ['Time', 'Username', 'Event', 'Result', 'Reason', 'Address', 'Location', 'Device'],
    result: { success: 'Success', failure: 'Failure' } as Record<string, string>,
    page: (p: number, total: number) => `Page ${p}, ${total} in all`,
  },
};

/** The login log as people read it: events, results, reasons and client kinds by name (the server's names). */
export function loginLogTable(items: Entry[], l = lang()): string {
  const t = TEXT[l];
  const cols: Array<(e: Entry) => unknown> = [
    (e) => beijingTime(e.createdAt),
    (e) => e.username,
    (e) => nameIn(LOGIN_EVENT_NAMES, e.event, l),
    (e) => t.result[e.result] ?? e.result,
    (e) => (e.reason ? nameIn(LOGIN_REASON_NAMES, e.reason, l) : ''),
    (e) => e.ip,
    (e) => e.location?.[l] ?? '',
    (e) => e.deviceLabel || nameIn(CLIENT_KIND_NAMES, e.clientKind, l),
  ];
  return table(
    items,
    cols.map((value, i) => ({ header: t.headers[i], value })),
  );
}

export function register(program: Command): void {
  program
    .command('login-log')
    .description('登录日志（login log）')
    .command('list')
    .description('查询登录日志，最新的在前')
    .option('--keyword <text>', '关键字')
    .option('--page <n>', '页码', positiveInt('--page'), 1)
    .option('--page-size <n>', '每页条数 1–100', positiveInt('--page-size', 100), 20)
    .action(
      action(async (ctx, o: { keyword?: string; page: number; pageSize: number }) => {
        const q = new URLSearchParams({
          page: String(o.page),
          pageSize: String(o.pageSize),
          ...(o.keyword ? { keyword: o.keyword } : {}),
        });
        const page = await raw<{ items: Entry[]; total: number; page: number }>(ctx, 'GET', `/api/login-logs?${q}`);
        return { json: page, text: `${loginLogTable(page.items)}\n${TEXT[lang()].page(page.page, page.total)}` };
      }),
    );
}
