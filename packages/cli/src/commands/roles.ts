/** roles list|grant */
import { bitsOf, PERMISSION_POINTS, toMask, type PermissionName, beijingTime } from '@tianji/client';
import type { Command } from 'commander';
import { action, positiveInt, unwrap, type Context } from '../context.js';
import { CliError, EXIT, fields, table, usageError } from '../output.js';
import { describeBits, findMenu } from './menus.js';

const STATUS: Record<string, string> = { enabled: '启用', disabled: '停用' };
const POINT_NAMES = PERMISSION_POINTS.map((p) => p.value);

/** Roles by code (or id), all of them or a clear error naming the missing ones. */
export async function resolveRoles(ctx: Context, codes: string[]) {
  const page = await unwrap(ctx.session.api.GET('/api/roles', { params: { query: { page: 1, pageSize: 100 } } }));
  const found = codes.map((c) => page.items.find((r) => r.code === c || r.id === c));
  const missing = codes.filter((_c, i) => !found[i]);
  if (missing.length) throw new CliError(EXIT.NOT_FOUND, `没有这些角色：${missing.join(', ')}（no such role）`);
  return found.map((r) => r!);
}

/** `SEARCH,ADD`, `5` or `0` (visible, no actions) into a mask. */
export function parseBits(value: string): bigint {
  if (/^\d+$/.test(value)) {
    const n = BigInt(value);
    if (n > 1023n) throw usageError(`权限位必须在 0–1023 之间（got ${value}）`);
    return n;
  }
  const names = value
    .split(',')
    .map((s) => s.trim().toUpperCase().replace(/-/g, '_'))
    .filter(Boolean);
  const bad = names.filter((n) => !POINT_NAMES.includes(n as PermissionName));
  if (bad.length || names.length === 0)
    throw usageError(`权限位写成数字 0–1023 或名称列表，可选：${POINT_NAMES.join(', ')}（got ${value}）`);
  return bitsOf(names as PermissionName[]);
}

export function register(program: Command): void {
  const roles = program.command('roles').description('角色管理（roles）');

  roles
    .command('list')
    .description('列出角色')
    .option('--keyword <text>', '按编码或名称筛选')
    .option('--page <n>', '页码', positiveInt('--page'), 1)
    .option('--page-size <n>', '每页条数 1–100', positiveInt('--page-size', 100), 50)
    .action(
      action(async (ctx, opts: { keyword?: string; page: number; pageSize: number }) => {
        const page = await unwrap(
          ctx.session.api.GET('/api/roles', {
            params: { query: { keyword: opts.keyword, page: opts.page, pageSize: opts.pageSize } },
          }),
        );
        const text = table(page.items, [
          { header: '编码', value: (r) => r.code },
          { header: '名称', value: (r) => r.name },
          { header: '状态', value: (r) => STATUS[r.status] ?? r.status },
          { header: '说明', value: (r) => r.description },
          { header: '更新于', value: (r) => beijingTime(r.updatedAt) },
          { header: 'ID', value: (r) => r.id },
        ]);
        return { json: page, text: `${text}\n共 ${page.total} 个角色` };
      }),
    );

  roles
    .command('grant <role> <menu> <bits>')
    .description(
      `给角色授予一个菜单上的权限位（替换该菜单原有的位）。bits：0–1023 或 ${POINT_NAMES.join(',')} 的组合；0 = 只可见`,
    )
    .action(
      action(async (ctx, roleCode: string, menuCode: string, bitsText: string) => {
        const bits = parseBits(bitsText);
        const [role] = await resolveRoles(ctx, [roleCode]);
        const menu = await findMenu(ctx, menuCode);
        const current = await unwrap(ctx.session.api.GET('/api/roles/{id}', { params: { path: { id: role!.id } } }));
        const grants = current.grants
          .filter((g) => g.menuId !== menu.id)
          .map((g) => ({ menuId: g.menuId, bits: toMask(g.bits).toString() }));
        grants.push({ menuId: menu.id, bits: bits.toString() });
        const updated = await unwrap(
          ctx.session.api.PUT('/api/roles/{id}/menus', { params: { path: { id: role!.id } }, body: { grants } }),
        );
        const text = fields([
          ['角色', `${updated.name}（${updated.code}）`],
          ['菜单', `${menu.name}（${menu.code}）`],
          ['权限位', `${bits} ${describeBits(bits)}`],
        ]);
        return { json: updated, text: `已授权\n${text}` };
      }),
    );
}
