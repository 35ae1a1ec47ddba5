/**
 * sessions list|end — thin commands over the sessions routes (GET/DELETE /api/auth/sessions for your own,
 * /api/sessions with --all for everyone's). Through raw fetch: the routes are newer than the generated types.
 */
import { ApiError, CLIENT_KIND_NAMES, SIGN_IN_METHOD_NAMES, beijingTime } from '@tianji/client';
import type { Command } from 'commander';
import { lang } from '../config.js';
import { action, raw } from '../context.js';
import { CliError, EXIT, table } from '../output.js';

type Session = {
  id: string;
  username?: string;
  clientKind: string;
  signInMethod?: string;
  deviceLabel: string;
  ip: string;
  location?: { zh: string; en: string };
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  current?: boolean;
};
type Page = { items: Session[]; total?: number } | Session[];

const HEADERS = {
  zh: {
    user: '用户',
    device: '设备',
    method: '方式',
    ip: '地址',
    location: '登录地点',
    signedIn: '登录时间',
    active: '最近活动',
    current: '本机',
  },
  en: {
    user: 'User',
    device: 'Device',
    method: 'Method',
    ip: 'Address',
    location: 'Location',
    signedIn: 'Signed in',
    active: 'Last active',
    current: 'This',
  },
};

/** The session list as people read it: who, which device (its label, else the client kind's name), how it signed in, when. */
export function sessionsTable(items: Session[], all: boolean, l = lang()): string {
  const h = HEADERS[l];
  const kind = (k: string) => CLIENT_KIND_NAMES[k as keyof typeof CLIENT_KIND_NAMES]?.[l] ?? k;
  const method = (m = '') => SIGN_IN_METHOD_NAMES[m as keyof typeof SIGN_IN_METHOD_NAMES]?.[l] ?? m;
  return table(items, [
    ...(all ? [{ header: h.user, value: (s: Session) => s.username }] : []),
    {
      header: h.device,
      value: (s: Session) => (s.deviceLabel ? `${s.deviceLabel}（${kind(s.clientKind)}）` : kind(s.clientKind)),
    },
    { header: h.method, value: (s: Session) => method(s.signInMethod) },
    { header: h.ip, value: (s: Session) => s.ip },
    { header: h.location, value: (s: Session) => s.location?.[l] ?? '' },
    { header: h.signedIn, value: (s: Session) => beijingTime(s.createdAt) },
    { header: h.active, value: (s: Session) => beijingTime(s.lastUsedAt) },
    ...(all ? [] : [{ header: h.current, value: (s: Session) => (s.current ? '*' : '') }]),
    { header: 'ID', value: (s: Session) => s.id },
  ]);
}

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
        return { json: data, text: sessionsTable(items, Boolean(opts.all)) };
      }),
    );

  sessions
    .command('end <id>')
    .description('结束一个会话；--all 表示结束别的用户的会话（需要权限）')
    .option('--all', '按管理员身份结束任意用户的会话')
    .action(
      action(async (ctx, id: string, opts: { all?: boolean }) => {
        try {
          await raw(ctx, 'DELETE', `${opts.all ? '/api/sessions' : '/api/auth/sessions'}/${encodeURIComponent(id)}`);
        } catch (e) {
          // Without --all only one's own sessions are looked at: another user's is "not found" there.
          if (!opts.all && e instanceof ApiError && e.status === 404)
            throw new CliError(
              EXIT.NOT_FOUND,
              `你没有 ID 为 ${id} 的会话。要结束其他用户的会话，请加 --all（需要在线会话的删除权限）` +
                `（no session of yours has this id; add --all to end another user's session）`,
              'NOT_FOUND',
            );
          throw e;
        }
        return { json: { id, ended: true }, text: `已结束会话 ${id}` };
      }),
    );
}
