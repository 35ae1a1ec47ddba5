/** audit list */
import { AUDIT_ACTIONS, AUDIT_TARGETS, type paths, beijingTime } from '@tianji/client';
import type { Command } from 'commander';
import { lang } from '../config.js';
import { action, positiveInt, unwrap } from '../context.js';
import { nameIn, table } from '../output.js';

type Entry = paths['/api/audit-logs']['get']['responses'][200]['content']['application/json']['data']['items'][number];

const TEXT = {
  zh: {
    headers: ['时间', '操作人', '动作', '对象', 'IP'],
    page: (p: number, total: number) => `第 ${p} 页，共 ${total} 条`,
  },
  en: {
    headers: ['Time', 'By', 'Action', 'Target', 'IP'],
    page: (p: number, total: number) => `Page ${p}, ${total} in all`,
  },
};

/** The target as the desktop audit page shows it: its kind, then its name (the id only when it has none). */
function targetText(e: Entry, l: 'zh' | 'en'): string {
  const kind = e.targetType ? nameIn(AUDIT_TARGETS, e.targetType, l) : '';
  return [kind, e.targetName || e.targetId].filter(Boolean).join(' ');
}

/** The audit log as people read it: actions and targets by the server's names, in the CLI's language. */
export function auditTable(items: Entry[], l = lang()): string {
  const cols: Array<(e: Entry) => unknown> = [
    (e) => beijingTime(e.createdAt),
    (e) => e.actorUsername,
    (e) => nameIn(AUDIT_ACTIONS, e.action, l),
    (e) => targetText(e, l),
    (e) => e.ip,
  ];
  return table(
    items,
    cols.map((value, i) => ({ header: TEXT[l].headers[i], value })),
  );
}

export function register(program: Command): void {
  program
    .command('audit')
    .description('审计日志（audit log）')
    .command('list')
    .description('查询审计日志，最新的在前')
    .option('--keyword <text>', '动作、操作人、对象类型或对象 ID 的子串')
    .option('--action <action>', '精确动作，如 user.create')
    .option('--from <date>', '起始日（北京时间，含）或时刻，如 2026-01-31')
    .option('--to <date>', '截止日（北京时间，含）或时刻，如 2026-01-31')
    .option('--page <n>', '页码', positiveInt('--page'), 1)
    .option('--page-size <n>', '每页条数 1–100', positiveInt('--page-size', 100), 20)
    .action(
      action(
        async (
          ctx,
          o: { keyword?: string; action?: string; from?: string; to?: string; page: number; pageSize: number },
        ) => {
          const query = {
            keyword: o.keyword,
            action: o.action,
            from: o.from,
            to: o.to,
            page: o.page,
            pageSize: o.pageSize,
          };
          const page = await unwrap(ctx.session.api.GET('/api/audit-logs', { params: { query } }));
          return { json: page, text: `${auditTable(page.items)}\n${TEXT[lang()].page(page.page, page.total)}` };
        },
      ),
    );
}
