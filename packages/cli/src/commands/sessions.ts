/**
 * sessions list|end — thin commands over the sessions routes (GET/DELETE /api/auth/sessions for your own,
 * /api/sessions with --all for everyone's). Through raw fetch: the routes are newer than the generated types.
 */
import type { Command } from 'commander';
import { action, raw } from '../context.js';
import { genericTable } from '../output.js';

type Page = { items: Array<Record<string, unknown>>; total?: number } | Array<Record<string, unknown>>;

export function register(program: Command): void {
  const sessions = program.command('sessions').description('会话（sessions）');

  sessions
    .command('list')
    .description('我的会话；--all 列出所有用户的在线会话（需要权限）')
    .option('--all', '所有用户')
    .action(
      action(async (ctx, opts: { all?: boolean }) => {
        const data = await raw<Page>(ctx, 'GET', opts.all ? '/api/sessions' : '/api/auth/sessions');
        const items = Array.isArray(data) ? data : data.items;
        return { json: data, text: genericTable(items) };
      }),
    );

  sessions
    .command('end <id>')
    .description('结束一个会话；--all 表示结束别的用户的会话（需要权限）')
    .option('--all', '按管理员身份结束任意用户的会话')
    .action(
      action(async (ctx, id: string, opts: { all?: boolean }) => {
        await raw(ctx, 'DELETE', `${opts.all ? '/api/sessions' : '/api/auth/sessions'}/${encodeURIComponent(id)}`);
        return { json: { id, ended: true }, text: `已结束会话 ${id}` };
      }),
    );
}
