/**
 * The command reference of the documentation site (docs/guide/cli-reference.md), written from the command
 * definitions themselves: a command, option or default changes in one place and the page follows
 * (`npm run docs:reference` rewrites it; packages/cli/test/reference.test.ts fails when it is stale).
 */
import type { Argument, Command, Option } from 'commander';
import { EXAMPLES, commandPath } from './examples.js';
import { EXIT, EXIT_MEANING } from './output.js';

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

/** The command's 示例, as on its help page. */
function exampleBlock(cmd: Command): string[] {
  const lines = EXAMPLES[commandPath(cmd)];
  return lines ? ['', '示例：', '', '```sh', ...lines, '```'] : [];
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
  out.push(...optionRows(cmd.options), ...exampleBlock(cmd));
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
    ...(Object.keys(EXIT) as Array<keyof typeof EXIT>).map((k) => `| ${EXIT[k]} | ${cell(EXIT_MEANING[k])} |`),
    '',
    '出错时 stderr 写一句 `tianji: …`；加 `--json` 则写一个 JSON 对象 `{"error": {"code", "message", "exitCode"}}`，' +
      '用法错误和服务器的错误都一样。',
    ...exampleBlock(program),
  ];
  for (const cmd of program.commands) section(cmd, 2, out);
  return `${out.join('\n')}\n`;
}
