/** audit list */
import type { Command } from 'commander';
import { action, positiveInt, unwrap } from '../context.js';
import { formatDate, table } from '../output.js';

export function register(program: Command): void {
  program
    .command('audit')
    .description('审计日志（audit log）')
    .command('list')
    .description('查询审计日志，最新的在前')
    .option('--keyword <text>', '动作、操作人、对象类型或对象 ID 的子串')
    .option('--action <action>', '精确动作，如 user.create')
    .option('--from <date>', '起始（含），如 2026-01-31')
    .option('--to <date>', '截止（含），如 2026-01-31')
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
          const text = table(page.items, [
            { header: '时间', value: (i) => formatDate(i.createdAt) },
            { header: '操作人', value: (i) => i.actorUsername },
            { header: '动作', value: (i) => i.action },
            { header: '对象', value: (i) => [i.targetType, i.targetId].filter(Boolean).join(' ') },
            { header: 'IP', value: (i) => i.ip },
          ]);
          return { json: page, text: `${text}\n第 ${page.page} 页，共 ${page.total} 条` };
        },
      ),
    );
}
