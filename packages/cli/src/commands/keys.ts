/**
 * keys create|list|revoke|rotate — the public API's keys (/api/admin/api-keys). A secret is printed once, when it is
 * made (create, rotate): the server keeps only its hash.
 */
import {
  API_KEY_STATUS_NAMES,
  type paths,
  LOOKUP_GROUP_CODES as GROUPS,
  lookupGroupName as groupName,
  ROTATION_GRACE_MAX as GRACE_MAX,
  beijingTime,
} from '@tianji/client';
import type { Command } from 'commander';
import { interactive, lang } from '../config.js';
import { action, positiveInt, unwrap, type Context } from '../context.js';
import { CliError, EXIT, fields, table, usageError, type Output } from '../output.js';
import { ask } from '../prompt.js';

export type ApiKey = paths['/api/admin/api-keys/{id}']['get']['responses'][200]['content']['application/json']['data'];
type Made = { key: ApiKey; secret: string };
type Group = NonNullable<
  NonNullable<paths['/api/admin/api-keys']['post']['requestBody']>['content']['application/json']['groups']
>[number];

const STATUSES = Object.keys(API_KEY_STATUS_NAMES) as Array<keyof typeof API_KEY_STATUS_NAMES>;

const TEXT = {
  zh: {
    headers: ['名称', '前缀', '状态', '每分钟', '每天', '最近使用', '过期时间', 'ID'],
    labels: {
      name: '名称',
      id: 'ID',
      prefix: '前缀',
      status: '状态',
      note: '备注',
      createdBy: '创建人',
      createdAt: '创建于',
      lastUsedAt: '最近使用',
      expiresAt: '过期时间',
      perMinute: '每分钟上限',
      perDay: '每天上限',
      groups: '接口分组',
      origins: '允许的来源',
      addresses: '允许的地址',
      graceUntil: '旧密钥有效至',
    },
    byDefault: '默认',
    never: '永不',
    all: '全部',
    page: (n: number) => `共 ${n} 个接口密钥`,
    secret: '密钥',
    once: '请立即妥善保存：密钥只显示这一次，之后无法再查看。',
  },
  en: {
    headers: ['Name', 'Prefix', 'Status', 'Per minute', 'Per day', 'Last used', 'Expires', 'ID'],
    labels: {
      name: 'Name',
      id: 'ID',
      prefix: 'Prefix',
      status: 'Status',
      note: 'Note',
      createdBy: 'Created by',
      createdAt: 'Created',
      lastUsedAt: 'Last used',
      expiresAt: 'Expires',
      perMinute: 'Per minute',
      perDay: 'Per day',
      groups: 'Endpoint groups',
      origins: 'Allowed origins',
      addresses: 'Allowed addresses',
      graceUntil: 'Old secret valid until',
    },
    byDefault: 'default',
    never: 'never',
    all: 'all',
    page: (n: number) => `${n} API keys in all`,
    secret: 'Secret',
    once: 'Store it now: the secret is shown only this once and cannot be shown again.',
  },
};

const shownPrefix = (k: ApiKey) => `tj_${k.prefix}…`;

/** The key list as people read it: status by name, limits (or the default), dates in Beijing time. */
export function keysTable(items: ApiKey[], l = lang()): string {
  const t = TEXT[l];
  const limit = (n: number | null) => n ?? t.byDefault;
  const cols: Array<(k: ApiKey) => unknown> = [
    (k) => k.name,
    shownPrefix,
    (k) => API_KEY_STATUS_NAMES[k.status][l],
    (k) => limit(k.perMinute),
    (k) => limit(k.perDay),
    (k) => beijingTime(k.lastUsedAt),
    (k) => (k.expiresAt ? beijingTime(k.expiresAt) : t.never),
    (k) => k.id,
  ];
  return table(
    items,
    cols.map((value, i) => ({ header: t.headers[i]!, value })),
  );
}

/** One key, label by label. */
export function keyText(k: ApiKey, l = lang()): string {
  const t = TEXT[l];
  const list = (xs: string[] | null) => (xs?.length ? xs.join(', ') : t.all);
  const rows: Array<[string, unknown]> = [
    [t.labels.name, k.name],
    [t.labels.id, k.id],
    [t.labels.prefix, shownPrefix(k)],
    [t.labels.status, API_KEY_STATUS_NAMES[k.status][l]],
    [t.labels.note, k.note ?? ''],
    [t.labels.createdBy, k.createdBy?.username ?? ''],
    [t.labels.createdAt, beijingTime(k.createdAt)],
    [t.labels.lastUsedAt, beijingTime(k.lastUsedAt)],
    [t.labels.expiresAt, k.expiresAt ? beijingTime(k.expiresAt) : t.never],
    [t.labels.perMinute, k.perMinute ?? t.byDefault],
    [t.labels.perDay, k.perDay ?? t.byDefault],
    [t.labels.groups, k.groups?.length ? k.groups.map((g) => groupName(g, l)).join(', ') : t.all],
    [t.labels.origins, list(k.origins)],
    [t.labels.addresses, list(k.addresses)],
  ];
  if (k.graceUntil) rows.push([t.labels.graceUntil, beijingTime(k.graceUntil)]);
  return fields(rows);
}

/** A new secret: the key, the secret on its own line, and the warning that it will not be shown again. */
export function madeText(made: Made, l = lang()): string {
  const t = TEXT[l];
  return `${keyText(made.key, l)}\n\n${t.secret}: ${made.secret}\n${t.once}`;
}

/** With --json the secret is in the JSON; the warning goes to stderr so the output stays one JSON value. */
function made(ctx: Context, m: Made): Output {
  if (ctx.json) process.stderr.write(`${TEXT[lang()].once}\n`);
  return { json: m, text: madeText(m) };
}

/** `2027-01-01` or `2027-01-01 12:00` (Beijing time), or an ISO time with its zone. */
export function parseExpiry(value: string): string {
  const local = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}))?$/.exec(value.trim());
  const at = local ? Date.parse(`${local[1]}T${local[2] ?? '00:00'}:00+08:00`) : Date.parse(value);
  if (!/^\d{4}-/.test(value.trim()) || Number.isNaN(at))
    throw usageError(
      `--expires 的格式应为 YYYY-MM-DD 或 "YYYY-MM-DD HH:MM"（北京时间），或带时区的 ISO 时间（got ${value}）`,
    );
  if (at <= Date.now()) throw usageError(`--expires 必须是将来的时间（got ${value}）`);
  return new Date(at).toISOString();
}

function groupsOf(values: string[] | undefined): Group[] | undefined {
  if (!values) return undefined;
  const wrong = values.filter((g) => !GROUPS.includes(g as (typeof GROUPS)[number]));
  if (wrong.length)
    throw usageError(
      `--group 只能是 ${GROUPS.map((g) => `${g}（${groupName(g, 'zh')}）`).join('、')}（got ${wrong.join(', ')}）`,
    );
  return values as Group[];
}

const FULL_SECRET = /^tj_[A-Za-z0-9_-]{43}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A key by id, by its prefix (`tj_ab12cd34`), or by exact name. */
export async function findKey(ctx: Context, which: string): Promise<ApiKey> {
  if (FULL_SECRET.test(which))
    throw usageError(
      '不要在命令行里写完整的密钥（它会留在 shell 历史里）：用 ID、名称或前缀（如 tj_ab12cd34）指明接口密钥',
    );
  if (UUID.test(which))
    return unwrap(ctx.session.api.GET('/api/admin/api-keys/{id}', { params: { path: { id: which } } }));
  const prefix = /^tj_([A-Za-z0-9_-]{8})…?$/.exec(which)?.[1];
  const query = { keyword: prefix ?? which, page: 1, pageSize: 100 };
  const page = await unwrap(ctx.session.api.GET('/api/admin/api-keys', { params: { query } }));
  const hits = page.items.filter((k) => (prefix ? k.prefix === prefix : k.name === which));
  if (hits.length === 1) return hits[0]!;
  if (hits.length === 0)
    throw new CliError(EXIT.NOT_FOUND, `没有这个接口密钥：${which}（用 ID、名称或前缀 tj_xxxxxxxx）`, 'NOT_FOUND');
  throw usageError(`有 ${hits.length} 个接口密钥叫 ${which}：请用 ID 指明（tianji keys list 可查）`);
}

/** Without a terminal to ask on, a revocation needs --yes: said before anything is looked up. */
function requireConfirmation(yes: boolean | undefined): void {
  if (!yes && !interactive())
    throw usageError('吊销接口密钥需要确认：在终端里运行，或加 --yes（revoking needs confirmation: add --yes）');
}

/** Asks before a revocation on a terminal (unless --yes). */
async function confirmRevoke(keys: ApiKey[], yes: boolean | undefined): Promise<void> {
  if (yes) return;
  const names = keys.map((k) => `${k.name}（${shownPrefix(k)}）`).join('、');
  const answer = await ask(`吊销接口密钥 ${names}？使用它的调用方将立即被拒绝，无法恢复。[y/N] `);
  if (!/^y(es)?$/i.test(answer.trim()))
    throw new CliError(EXIT.USAGE, '已取消，没有吊销任何密钥（cancelled）', 'CANCELLED');
}

interface CreateOptions {
  note?: string;
  expires?: string;
  perMinute?: number;
  perDay?: number;
  group?: string[];
  origin?: string[];
  address?: string[];
}

export function register(program: Command): void {
  const keys = program.command('keys').description('接口密钥（公共接口的调用方密钥 API keys）');

  keys
    .command('list')
    .description('列出接口密钥')
    .option('--keyword <text>', '按名称、备注或前缀筛选')
    .option('--status <status>', STATUSES.map((s) => `${s}（${API_KEY_STATUS_NAMES[s].zh}）`).join('、'))
    .option('--page <n>', '页码，从 1 开始', positiveInt('--page'), 1)
    .option('--page-size <n>', '每页条数 1–100', positiveInt('--page-size', 100), 20)
    .action(
      action(async (ctx, opts: { keyword?: string; status?: string; page: number; pageSize: number }) => {
        if (opts.status !== undefined && !STATUSES.includes(opts.status as (typeof STATUSES)[number]))
          throw usageError(`--status 只能是 ${STATUSES.join('、')}（got ${opts.status}）`);
        const status = opts.status as ApiKey['status'] | undefined;
        const query = { keyword: opts.keyword, status, page: opts.page, pageSize: opts.pageSize };
        const page = await unwrap(ctx.session.api.GET('/api/admin/api-keys', { params: { query } }));
        return { json: page, text: `${keysTable(page.items)}\n${TEXT[lang()].page(page.total)}` };
      }),
    );

  keys
    .command('create <name>')
    .description('新建接口密钥；密钥只显示这一次')
    .option('--note <text>', '备注（谁在用、做什么）')
    .option('--expires <time>', '过期时间：YYYY-MM-DD 或 "YYYY-MM-DD HH:MM"（北京时间）；不给则永不过期')
    .option('--per-minute <n>', '每分钟请求上限（不给则用服务器默认）', positiveInt('--per-minute'))
    .option('--per-day <n>', '每天请求上限（不给则用服务器默认）', positiveInt('--per-day'))
    .option('--group <group...>', `只允许这些接口分组：${GROUPS.join('、')}（不给则全部）`)
    .option('--origin <origin...>', '只允许这些来源（Origin，如 https://app.example.com）')
    .option('--address <ip...>', '只允许这些地址（IP 或 CIDR）')
    .action(
      action(async (ctx, name: string, opts: CreateOptions) => {
        const body = {
          name,
          note: opts.note,
          expiresAt: opts.expires === undefined ? undefined : parseExpiry(opts.expires),
          perMinute: opts.perMinute,
          perDay: opts.perDay,
          groups: groupsOf(opts.group),
          origins: opts.origin,
          addresses: opts.address,
        };
        return made(ctx, await unwrap(ctx.session.api.POST('/api/admin/api-keys', { body })));
      }),
    );

  keys
    .command('revoke <key...>')
    .description('吊销接口密钥（ID、名称或前缀；可多个）：立即失效，记录保留')
    .option('--yes', '不再确认')
    .action(
      action(async (ctx, which: string[], opts: { yes?: boolean }) => {
        requireConfirmation(opts.yes);
        const found = [];
        for (const w of which) found.push(await findKey(ctx, w));
        await confirmRevoke(found, opts.yes);
        if (found.length === 1) {
          const k = found[0]!;
          await unwrap(ctx.session.api.DELETE('/api/admin/api-keys/{id}', { params: { path: { id: k.id } } }));
          return { json: { id: k.id, revoked: true }, text: `已吊销接口密钥 ${k.name}（${shownPrefix(k)}）` };
        }
        const body = { ids: found.map((k) => k.id) };
        const { deleted } = await unwrap(ctx.session.api.POST('/api/admin/api-keys/batch-delete', { body }));
        return { json: { revoked: deleted }, text: `已吊销 ${deleted} 个接口密钥` };
      }),
    );

  keys
    .command('rotate <key>')
    .description('轮换接口密钥：发新密钥（只显示这一次），旧密钥在宽限期内仍可用')
    .option(
      '--grace <minutes>',
      `旧密钥还能用多少分钟（0–${GRACE_MAX}，0 = 立即失效）`,
      positiveInt('--grace', GRACE_MAX, 0),
      60,
    )
    .action(
      action(async (ctx, which: string, opts: { grace: number }) => {
        const k = await findKey(ctx, which);
        const m = await unwrap(
          ctx.session.api.POST('/api/admin/api-keys/{id}/rotate', {
            params: { path: { id: k.id } },
            body: { graceMinutes: opts.grace },
          }),
        );
        return made(ctx, m);
      }),
    );
}
