/**
 * `tianji`: the command line client. Each command group is one module under commands/; output and exit codes go
 * through output.ts. Arguments are parsed by commander.
 */
import { Command, CommanderError } from 'commander';
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
import { CliError, describeFailure, EXIT, reportFailure } from './output.js';

export function buildProgram(): Command {
  const program = new Command('tianji')
    .description('tianji 命令行：登录后管理用户、角色、菜单、内容库、接口密钥和审计日志')
    .option('--profile <name>', '使用哪个服务器配置（默认：当前配置，或 TIANJI_PROFILE）')
    .option('--json', '输出 JSON（给脚本用）')
    .showHelpAfterError('（用 --help 查看用法）')
    .exitOverride();
  for (const group of [auth, totp, users, roles, menus, content, audit, sessions, loginLog, keys, profiles])
    group.register(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  if (argv.length <= 2) {
    program.outputHelp();
    return EXIT.USAGE;
  }
  try {
    await program.parseAsync(argv);
    return EXIT.OK;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version are not failures; every other parse error is a usage error (commander printed it).
      return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help'
        ? EXIT.OK
        : EXIT.USAGE;
    }
    const failure = e instanceof CliError ? e : describeFailure(e);
    // --json is a global option: with it, scripts get their errors as JSON too.
    reportFailure(failure, argv.includes('--json'));
    return failure.exitCode;
  }
}
