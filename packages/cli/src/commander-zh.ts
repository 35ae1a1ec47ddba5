/**
 * commander's own words in Chinese: its parse errors (unknown option, missing value, too many arguments, …) and the
 * titles, usage line and built-in options of every help page. commander has no message catalogue, so its English
 * sentences are matched here, one pattern each; reference.test.ts and commander-zh.test.ts fail when an upgrade
 * changes one.
 */
import { stripVTControlCharacters } from 'node:util';
import { Command, Help, type Argument, type Option } from 'commander';
import { displayWidth } from './output.js';

/** `\n(Did you mean users?)` → `（是不是要用 users？）` */
function suggestion(rest: string): string {
  const m = /^\s*\(Did you mean (?:one of )?(.+)\?\)\s*$/s.exec(rest);
  return m ? `（是不是要用 ${m[1]}？）` : rest.trim();
}

/** `option '--page <n>'` or `environment variable 'X'` → 选项 --page <n> / 环境变量 X */
const subject = (s: string) =>
  s.replace(/^option '(.+)'$/, '选项 $1').replace(/^environment variable '(.+)'$/, '环境变量 $1');

const PATTERNS: Array<[RegExp, (...m: string[]) => string]> = [
  [/^unknown option '(.+?)'(.*)$/s, (flag, rest) => `未知的选项 ${flag}${suggestion(rest)}`],
  [/^unknown command '(.+?)'(.*)$/s, (name, rest) => `未知的命令 ${name}${suggestion(rest)}`],
  [/^missing required argument '(.+)'$/, (name) => `缺少参数 <${name}>`],
  [/^option '(.+)' argument missing$/, (flags) => `选项 ${flags} 缺少取值`],
  [/^required option '(.+)' not specified$/, (flags) => `缺少必需的选项 ${flags}`],
  [
    /^too many arguments(?: for '(.+?)')?\. Expected (\d+) arguments? but got (\d+)\.$/,
    (name, expected, got) => `参数过多：${name ? `${name} ` : ''}需要 ${expected} 个参数，给了 ${got} 个`,
  ],
  [
    /^option '(.+?)' argument '(.*?)' is invalid\. ?(.*)$/s,
    (flags, value, why) => `选项 ${flags} 的取值 ${value} 不合法${why ? `：${why}` : ''}`,
  ],
  [
    /^command-argument value '(.*?)' is invalid for argument '(.+?)'\. ?(.*)$/s,
    (value, name, why) => `参数 <${name}> 的取值 ${value} 不合法${why ? `：${why}` : ''}`,
  ],
  [/^(.+) cannot be used with (.+)$/, (a, b) => `${subject(a)} 不能与 ${subject(b)} 同时使用`],
];

/** commander's error message (`error: unknown option '--x'`) in Chinese; anything unknown keeps its text. */
export function translateParseError(message: string): string {
  const text = message.replace(/^error: /, '');
  for (const [re, say] of PATTERNS) {
    const m = re.exec(text);
    if (m) return say(...m.slice(1).map((s) => s ?? ''));
  }
  return text;
}

const TITLES: Record<string, string> = {
  'Usage:': '用法：',
  'Arguments:': '参数：',
  'Options:': '选项：',
  'Global Options:': '全局选项：',
  'Commands:': '命令：',
};

/** `(default: 20, choices: "a", "b")` → `（默认：20，可选："a", "b"）` */
const extraInfo = (description: string) =>
  description.replace(/ ?\(((?:default|choices|preset|env): .*)\)$/, (_m, inner: string) => {
    const zh = inner
      .replace(/default: /, '默认：')
      .replace(/choices: /, '可选：')
      .replace(/preset: /, '省略取值时：')
      .replace(/env: /, '环境变量：')
      .replace(/, (?=默认|可选|省略|环境)/g, '，');
    return `（${zh}）`;
  });

const zhUsage = (usage: string) => usage.replace('[options]', '[选项]').replace('[command]', '[命令]');

/** A Help whose titles, usage line and option notes are Chinese. */
class ChineseHelp extends Help {
  override styleTitle(str: string): string {
    return TITLES[str] ?? str;
  }

  override commandUsage(cmd: Command): string {
    return zhUsage(super.commandUsage(cmd));
  }

  override subcommandTerm(cmd: Command): string {
    return zhUsage(super.subcommandTerm(cmd));
  }

  // Columns line up by what a terminal shows: 命令 is four columns wide, not two.
  override displayWidth(str: string): number {
    return displayWidth(stripVTControlCharacters(str));
  }

  override optionDescription(option: Option): string {
    return extraInfo(super.optionDescription(option));
  }

  override argumentDescription(argument: Argument): string {
    return extraInfo(super.argumentDescription(argument));
  }
}

/**
 * The `tianji` command and every subcommand: help and parse errors in Chinese (errors without commander's
 * `error:` prefix; main.ts prints them as `tianji: …` or, with --json, as JSON).
 */
export class TianjiCommand extends Command {
  override createCommand(name?: string): TianjiCommand {
    return new TianjiCommand(name);
  }

  override createHelp(): Help {
    return Object.assign(new ChineseHelp(), this.configureHelp());
  }

  override error(message: string, errorOptions?: { code?: string; exitCode?: number }): never {
    return super.error(translateParseError(message), errorOptions);
  }
}
