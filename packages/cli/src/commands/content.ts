/** content list|import|export <library> [FILE] — the libraries are the ones the server's routes name. */
import fs from 'node:fs';
import path from 'node:path';
import { ApiError, ROUTE_PERMISSIONS, beijingTime } from '@tianji/client';
import type { Command } from 'commander';
import { action, positiveInt, raw, type Context } from '../context.js';
import { table, usageError } from '../output.js';
import { readStdin } from '../prompt.js';

/** Every library with a list route in the generated catalogue (hitokoto, poems, …). */
export const LIBRARIES = Object.keys(ROUTE_PERMISSIONS)
  .map((k) => /^GET \/api\/admin\/content\/([^/]+)$/.exec(k)?.[1])
  .filter((x): x is string => Boolean(x));

function library(name: string): string {
  if (!LIBRARIES.includes(name)) throw usageError(`没有这个内容库：${name}；可选：${LIBRARIES.join(', ')}`);
  return `/api/admin/content/${name}`;
}

function format(opt: string | undefined, file: string | undefined): 'json' | 'csv' {
  const f = opt ?? (file && path.extname(file).toLowerCase() === '.csv' ? 'csv' : 'json');
  if (f !== 'json' && f !== 'csv') throw usageError(`--format 只能是 json 或 csv（got ${f}）`);
  return f;
}

type Item = Record<string, unknown> & { id: string };
const HIDDEN = new Set(['id', 'createdAt', 'updatedAt']);

async function list(ctx: Context, lib: string, opts: { keyword?: string; page: number; pageSize: number }) {
  const q = new URLSearchParams({
    page: String(opts.page),
    pageSize: String(opts.pageSize),
    ...(opts.keyword ? { keyword: opts.keyword } : {}),
  });
  const page = await raw<{ items: Item[]; total: number; page: number }>(ctx, 'GET', `${library(lib)}?${q}`);
  const keys = Object.keys(page.items[0] ?? {})
    .filter((k) => !HIDDEN.has(k))
    .slice(0, 4);
  const clip = (v: unknown) => {
    const s = (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')).replace(/\s+/g, ' ');
    return s.length > 40 ? `${s.slice(0, 39)}…` : s;
  };
  const text = table(page.items, [
    ...keys.map((k) => ({ header: k, value: (i: Item) => clip(i[k]) })),
    { header: '更新于', value: (i: Item) => beijingTime(i.updatedAt) },
    { header: 'ID', value: (i: Item) => i.id },
  ]);
  return { json: page, text: `${text}\n第 ${page.page} 页，共 ${page.total} 条` };
}

export function register(program: Command): void {
  const content = program.command('content').description(`内容库（${LIBRARIES.join(', ')}）`);

  content
    .command('list <library>')
    .description('列出内容库的条目')
    .option('--keyword <text>', '关键字')
    .option('--page <n>', '页码', positiveInt('--page'), 1)
    .option('--page-size <n>', '每页条数 1–100', positiveInt('--page-size', 100), 20)
    .action(action(list));

  content
    .command('export <library> [file]')
    .description('导出整个内容库到文件（不给文件则写到标准输出）')
    .option('--format <format>', 'json 或 csv（默认按文件扩展名，否则 json）')
    .action(
      action(async (ctx, lib: string, file: string | undefined, opts: { format?: string }) => {
        const fmt = format(opts.format, file);
        const res = await ctx.session.fetch(`${library(lib)}/export?format=${fmt}`);
        if (!res.ok) throw await ApiError.from(res);
        const body = Buffer.from(await res.arrayBuffer());
        if (!file || file === '-') {
          process.stdout.write(body);
          return;
        }
        fs.writeFileSync(file, body);
        return {
          json: { library: lib, file, format: fmt, bytes: body.length },
          text: `已导出 ${lib} 到 ${file}（${body.length} 字节）`,
        };
      }),
    );

  content
    .command('import <library> [file]')
    .description('从文件导入（全部成功或全部不导入）；不给文件则读标准输入')
    .option('--format <format>', 'json 或 csv（默认按文件扩展名，否则 json）')
    .action(
      action(async (ctx, lib: string, file: string | undefined, opts: { format?: string }) => {
        const url = `${library(lib)}/import`;
        const fmt = format(opts.format, file);
        let text: string;
        try {
          text = !file || file === '-' ? await readStdin() : fs.readFileSync(file, 'utf8');
        } catch (e) {
          throw usageError(`读不了文件 ${file}：${(e as Error).message}`);
        }
        const result = await raw<{ imported: number }>(ctx, 'POST', url, {
          format: fmt,
          content: text.replace(/^\uFEFF/, ''),
        });
        return { json: { library: lib, ...result }, text: `已导入 ${result.imported} 条到 ${lib}` };
      }),
    );
}
