/**
 * `tianji`: the command line client. Each command group is one module under commands/; output and exit codes go
 * through output.ts. Arguments are parsed by commander, speaking Chinese (commander-zh.ts).
 */
import { type Command, CommanderError } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import { TianjiCommand } from './commander-zh.js';
import * as audit from './commands/audit.js';
import * as auth from './commands/auth.js';
import * as content from './commands/content.js';
import * as keys from './commands/keys.js';
import * as loginLog from './commands/login-log.js';
import * as menus from './commands/menus.js';
import * as profiles from './commands/profiles.js';
import * as roles from './commands/roles.js';
import * as sessions from './commands/sessions.js';
import * as totp from './commands/totp.js';
import * as users from './commands/users.js';
import { addExamples } from './examples.js';
import { CliError, describeFailure, EXIT, exitCodesText, reportFailure } from './output.js';

/** Where commander writes: the process by default; a test passes its own. */
export interface ProgramIo {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

const processIo: ProgramIo = {
  writeOut: (text) => process.stdout.write(text),
  writeErr: (text) => process.stderr.write(text),
};

/**
 * The whole command tree. With `asJson` commander prints no parse error itself: main reports it as JSON.
 */
export function buildProgram({ io = processIo, asJson = false }: { io?: ProgramIo; asJson?: boolean } = {}): Command {
  // Settings made before the groups register are inherited by every subcommand (output, help, exit override).
  const program = new TianjiCommand('tianji')
    .description('tianji 命令行：登录后管理用户、角色、菜单、内容库、接口密钥和审计日志')
    .version(pkg.version, '-V, --version', '显示版本号')
    .option('--profile <name>', '使用哪个服务器配置（默认：当前配置，或 TIANJI_PROFILE）')
    .option('--json', '输出 JSON（给脚本用；出错时 stderr 也是 JSON）')
    .helpOption('-h, --help', '显示帮助')
    .helpCommand('help [command]', '显示某个命令的帮助')
    .configureOutput({
      writeOut: io.writeOut,
      writeErr: io.writeErr,
      outputError: (text, write) => (asJson ? undefined : write(`tianji: ${text}`)),
    })
    .showHelpAfterError(asJson ? false : '（用 --help 查看用法和示例）')
    .exitOverride();
  for (const group of [auth, totp, users, roles, menus, content, audit, sessions, loginLog, keys, profiles])
    group.register(program);
  addExamples(program);
  program.addHelpText('after', exitCodesText());
  return program;
}

export async function main(argv: string[], io: ProgramIo = processIo): Promise<number> {
  // --json is a global option: with it, scripts get their errors as JSON too.
  const asJson = argv.includes('--json');
  const program = buildProgram({ io, asJson });
  if (argv.length <= 2) {
    program.outputHelp();
    return EXIT.USAGE;
  }
  try {
    await program.parseAsync(argv);
    return EXIT.OK;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version are not failures; every other parse error is a usage error (commander printed it, in
      // Chinese, unless it is to be JSON).
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
        return EXIT.OK;
      if (asJson) reportFailure(new CliError(EXIT.USAGE, e.message), true, io);
      return EXIT.USAGE;
    }
    const failure = e instanceof CliError ? e : describeFailure(e);
    reportFailure(failure, asJson, io);
    return failure.exitCode;
  }
}
