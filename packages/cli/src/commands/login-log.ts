/** login-log list — a thin command over GET /api/login-logs (newer than the generated types, hence raw fetch). */
import type { Command } from 'commander';
import { action, positiveInt, raw } from '../context.js';
import { genericTable } from '../output.js';

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
        const page = await raw<{ items: Array<Record<string, unknown>>; total: number; page: number }>(
          ctx,
          'GET',
          `/api/login-logs?${q}`,
        );
        return { json: page, text: `${genericTable(page.items)}\n第 ${page.page} 页，共 ${page.total} 条` };
      }),
    );
}
