/**
 * The command reference of the documentation site (docs/guide/cli-reference.md), written from the command
 * definitions themselves: a command, option or default changes in one place and the page follows
 * (`npm run docs:reference` rewrites it; packages/cli/test/reference.test.ts fails when it is stale).
 */
import type { Argument, Command, Option } from 'commander';
import { EXIT } from './output.js';

/** What each exit code means, in EXIT's order (typed: a new code needs its meaning here). */
const EXIT_MEANING: Record<keyof typeof EXIT, string> = {
  OK: '成功',
  USAGE: '用法错误：未知的命令或选项、取值不合法（消息写明允许什么）',
  FORBIDDEN: '无权限（403）：服务器的消息，如「无权限」或防提权的原因',
  SIGNED_OUT: '未登录，或会话已结束（刷新被拒、密码已改、账号停用）：服务器给出的原因',
  SERVER: '其他服务器错误（4xx/5xx，如导入时重复），或连不上服务器',
};

/** Table-cell text; `<` escaped because VitePress reads each page as a Vue template. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ').replace(/</g, '&lt;');

function usage(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  const args = (cmd.registeredArguments as readonly Argument[]).map((a) => {
    const name = `${a.name()}${a.variadic ? '...' : ''}`;
    return a.required ? `<${name}>` : `[${name}]`;
  });
  return [...names, ...args, ...(cmd.options.length ? ['[选项]'] : [])].join(' ');
}

function optionRows(options: readonly Option[]): string[] {
  if (!options.length) return [];
  return [
    '',
    '| 选项 | 说明 | 默认值 |',
    '|---|---|---|',
    ...options.map(
      (o) =>
        `| \`${cell(o.flags)}\` | ${cell(o.description)} | ${o.defaultValue === undefined ? '' : `\`${String(o.defaultValue)}\``} |`,
    ),
  ];
}

function section(cmd: Command, depth: number, out: string[]): void {
  const leaf = cmd.commands.length === 0;
  out.push(
    '',
    `${'#'.repeat(Math.min(depth, 4))} \`${usage(cmd).replace(/ \[选项\]$/, '')}\``,
    '',
    cell(cmd.description()),
  );
  if (leaf) out.push('', '```sh', usage(cmd), '```');
  const args = cmd.registeredArguments as readonly Argument[];
  if (args.some((a) => a.description))
    out.push('', ...args.filter((a) => a.description).map((a) => `- \`${a.name()}\`：${a.description}`));
  out.push(...optionRows(cmd.options));
  for (const sub of cmd.commands) section(sub, depth + 1, out);
}

/** The whole reference as Markdown, for the program `buildProgram()` returns. */
export function renderReference(program: Command): string {
  const out = [
    '# 命令行参考 CLI reference',
    '',
    '<!-- 由 packages/cli/src/reference.ts 从命令定义生成，请勿手改：npm run docs:reference -->',
    '',
    program.description(),
    '',
    '全局选项（放在命令之前，如 `tianji --profile lily --json users list`）：',
    ...optionRows(program.options),
    '',
    '| 退出码 | 含义 |',
    '|--:|---|',
    ...(Object.keys(EXIT) as Array<keyof typeof EXIT>).map((k) => `| ${EXIT[k]} | ${EXIT_MEANING[k]} |`),
  ];
  for (const cmd of program.commands) section(cmd, 2, out);
  return `${out.join('\n')}\n`;
}
