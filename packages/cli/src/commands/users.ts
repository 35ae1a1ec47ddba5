/** users list|get|create|enable|disable|reset-password|unlock|reset-totp|roles|force-logout */
import type { paths } from '@tianji/client';
import { beijingTime } from '@tianji/client';
import type { Command } from 'commander';
import { action, positiveInt, raw, unwrap, type Context } from '../context.js';
import { CliError, EXIT, fields, table, usageError } from '../output.js';
import { password } from '../prompt.js';
import { resolveRoles } from './roles.js';

type User = paths['/api/users/{id}']['get']['responses'][200]['content']['application/json']['data'];
type RoleRef = User['roles'][number];

const STATUS: Record<string, string> = { enabled: '启用', disabled: '停用' };
const roleNames = (roles: RoleRef[]) => roles.map((r) => r.code).join(',');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user by id or by exact username. */
export async function findUser(ctx: Context, idOrName: string): Promise<User> {
  if (UUID.test(idOrName))
    return unwrap(ctx.session.api.GET('/api/users/{id}', { params: { path: { id: idOrName } } }));
  const page = await unwrap(
    ctx.session.api.GET('/api/users', { params: { query: { keyword: idOrName, page: 1, pageSize: 100 } } }),
  );
  const hit = page.items.find((u) => u.username === idOrName);
  if (!hit) throw new CliError(EXIT.NOT_FOUND, `没有这个用户：${idOrName}（no such user）`);
  return hit;
}

function userText(u: User): string {
  return fields([
    ['用户名', u.username],
    ['昵称', u.nickname],
    ['ID', u.id],
    ['状态', STATUS[u.status] ?? u.status],
    ['角色', u.roles.map((r) => `${r.name}（${r.code}）`).join('、') || '（无）'],
    ['两步验证', u.totpEnabled ? '已开启' : '未开启'],
    ['创建于', beijingTime(u.createdAt)],
    ['更新于', beijingTime(u.updatedAt)],
    ...(u.deniedReason ? ([['不可操作', u.deniedReason]] as Array<[string, unknown]>) : []),
  ]);
}

const one = (u: User) => ({ json: u, text: userText(u) });

export function register(program: Command): void {
  const users = program.command('users').description('用户管理（users）');

  users
    .command('list')
    .description('列出用户')
    .option('--keyword <text>', '按用户名或昵称筛选')
    .option('--status <status>', 'enabled 或 disabled')
    .option('--page <n>', '页码，从 1 开始', positiveInt('--page'), 1)
    .option('--page-size <n>', '每页条数 1–100', positiveInt('--page-size', 100), 20)
    .action(
      action(async (ctx, opts: { keyword?: string; status?: string; page: number; pageSize: number }) => {
        if (opts.status !== undefined && opts.status !== 'enabled' && opts.status !== 'disabled') {
          throw new CliError(EXIT.USAGE, `--status 只能是 enabled 或 disabled（got ${opts.status}）`);
        }
        const status = opts.status as 'enabled' | 'disabled' | undefined;
        const page = await unwrap(
          ctx.session.api.GET('/api/users', {
            params: { query: { keyword: opts.keyword, status, page: opts.page, pageSize: opts.pageSize } },
          }),
        );
        const text = table(page.items, [
          { header: '用户名', value: (u) => u.username },
          { header: '昵称', value: (u) => u.nickname },
          { header: '状态', value: (u) => STATUS[u.status] ?? u.status },
          { header: '角色', value: (u) => roleNames(u.roles) },
          { header: '创建于', value: (u) => beijingTime(u.createdAt) },
          { header: 'ID', value: (u) => u.id },
        ]);
        return { json: page, text: `${text}\n第 ${page.page} 页，共 ${page.total} 个用户` };
      }),
    );

  users
    .command('get <user>')
    .description('查看一个用户（id 或用户名）')
    .action(action(async (ctx, who: string) => one(await findUser(ctx, who))));

  users
    .command('create <username>')
    .description('新建用户；密码从提示或 --password-stdin 读入')
    .option('--nickname <name>', '昵称')
    .option('--role <code...>', '角色编码（可多个）')
    .option('--disabled', '建成停用状态')
    .option('--password-stdin', '从标准输入读取密码')
    .action(
      action(
        async (
          ctx,
          username: string,
          opts: { nickname?: string; role?: string[]; disabled?: boolean; passwordStdin?: boolean },
        ) => {
          const pw = await password(opts.passwordStdin, '新用户的密码 (password): ');
          const roleIds = opts.role ? (await resolveRoles(ctx, opts.role)).map((r) => r.id) : undefined;
          const body = {
            username,
            password: pw,
            nickname: opts.nickname,
            roleIds,
            status: opts.disabled ? ('disabled' as const) : undefined,
          };
          return one(await unwrap(ctx.session.api.POST('/api/users', { body })));
        },
      ),
    );

  for (const [name, status, label] of [
    ['enable', 'enabled', '启用用户'],
    ['disable', 'disabled', '停用用户（并结束其所有会话）'],
  ] as const) {
    users
      .command(`${name} <user>`)
      .description(label)
      .action(
        action(async (ctx, who: string) => {
          const u = await findUser(ctx, who);
          return one(
            await unwrap(
              ctx.session.api.PATCH('/api/users/{id}', { params: { path: { id: u.id } }, body: { status } }),
            ),
          );
        }),
      );
  }

  users
    .command('reset-password <user>')
    .description('为用户设置新密码（结束其所有会话）')
    .option('--password-stdin', '从标准输入读取新密码')
    .action(
      action(async (ctx, who: string, opts: { passwordStdin?: boolean }) => {
        const u = await findUser(ctx, who);
        // The server refuses it too (403): one's own password is changed with the current one, by `tianji password`.
        if (u.id === ctx.session.user?.id)
          throw usageError(
            '不能用 users reset-password 修改自己的密码：请运行 tianji password（需要当前密码） · use `tianji password` for your own account',
          );
        const pw = await password(opts.passwordStdin, '新密码 (new password): ');
        await unwrap(
          ctx.session.api.POST('/api/users/{id}/reset-password', {
            params: { path: { id: u.id } },
            body: { password: pw },
          }),
        );
        return { json: { id: u.id, username: u.username, passwordReset: true }, text: `已重置 ${u.username} 的密码` };
      }),
    );

  users
    .command('unlock <user>')
    .description('解锁用户：清除其登录失败记录（所有地址）和两步验证锁定，让其可以立即重新登录')
    .action(
      action(async (ctx, who: string) => {
        const u = await findUser(ctx, who);
        const r = await unwrap(ctx.session.api.POST('/api/users/{id}/unlock', { params: { path: { id: u.id } } }));
        return {
          json: { id: u.id, username: u.username, cleared: r.cleared },
          text: r.cleared
            ? `已解锁 ${u.username}（清除 ${r.cleared} 条登录失败记录）`
            : `${u.username} 没有被限制登录，无需解锁`,
        };
      }),
    );

  users
    .command('reset-totp <user>')
    .description('重置用户的两步验证：删除 TOTP 密钥和恢复码，并结束其所有会话（用于丢失验证器的用户）')
    .action(
      action(async (ctx, who: string) => {
        const u = await findUser(ctx, who);
        // The server refuses it too (403): one's own is turned off with proof, in the profile.
        if (u.id === ctx.session.user?.id)
          throw usageError(
            '不能重置自己的两步验证：请在个人资料中关闭（需要密码或验证码） · turn off your own in your profile',
          );
        await raw(ctx, 'POST', `/api/users/${encodeURIComponent(u.id)}/reset-totp`);
        return {
          json: { id: u.id, username: u.username, totpReset: true },
          text: `已重置 ${u.username} 的两步验证，其所有会话已结束`,
        };
      }),
    );

  users
    .command('roles <user> [roles...]')
    .description('查看用户的角色；给出角色编码时改为恰好这些角色（--none 清空）')
    .option('--none', '去掉全部角色')
    .action(
      action(async (ctx, who: string, codes: string[], opts: { none?: boolean }) => {
        const u = await findUser(ctx, who);
        if (codes.length === 0 && !opts.none) {
          return {
            json: u.roles,
            text: table(u.roles, [
              { header: '编码', value: (r) => r.code },
              { header: '名称', value: (r) => r.name },
              { header: 'ID', value: (r) => r.id },
            ]),
          };
        }
        const roleIds = opts.none ? [] : (await resolveRoles(ctx, codes)).map((r) => r.id);
        return one(
          await unwrap(
            ctx.session.api.PUT('/api/users/{id}/roles', { params: { path: { id: u.id } }, body: { roleIds } }),
          ),
        );
      }),
    );

  users
    .command('force-logout <user>')
    .description('强制用户下线（结束其所有会话）')
    .action(
      action(async (ctx, who: string) => {
        const u = await findUser(ctx, who);
        const result = await raw(ctx, 'POST', `/api/users/${encodeURIComponent(u.id)}/force-logout`);
        return { json: result ?? { id: u.id, forcedLogout: true }, text: `已强制 ${u.username} 下线` };
      }),
    );
}
