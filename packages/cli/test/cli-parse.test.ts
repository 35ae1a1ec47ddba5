/**
 * What `tianji` says before it talks to any server: its version, every help page (Chinese, with runnable 示例),
 * commander's parse errors in Chinese (and as JSON with --json), a profile that does not exist, and the exit code of a
 * record that is not there. The program is built in the test and fed argv (main(argv, io)): no process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from '@tianji/client';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { EXAMPLES, commandPath } from '../src/examples.js';
import { buildProgram, main } from '../src/main.js';
import { describeFailure, EXIT } from '../src/output.js';

/** Runs `tianji …args` in-process; what it printed and its exit code. */
async function tianji(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'tianji', ...args], {
    writeOut: (t) => {
      stdout += t;
    },
    writeErr: (t) => {
      stderr += t;
    },
  });
  return { code, stdout, stderr };
}

function allCommands(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(allCommands)];
}

/** `echo x | tianji users get a` → ['users', 'get', 'a']: the words after `tianji`, up to a redirection. */
function wordsOf(example: string): string[] {
  const words = (example.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((w) => w.replace(/^(["'])(.*)\1$/, '$2'));
  const rest = words.slice(words.indexOf('tianji') + 1);
  const end = rest.findIndex((w) => ['|', '>', '<'].includes(w));
  return end < 0 ? rest : rest.slice(0, end);
}

/** English commander puts on a page unless told otherwise. */
const COMMANDER_ENGLISH = /Usage:|Options:|Commands:|Arguments:|display help|\[options\]|\[command\]|default:|error:/;

describe('tianji before any server', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-parse-'));
  const saved = { xdg: process.env.XDG_CONFIG_HOME, profile: process.env.TIANJI_PROFILE };
  beforeAll(() => {
    process.env.XDG_CONFIG_HOME = home;
    delete process.env.TIANJI_PROFILE;
    fs.mkdirSync(path.join(home, 'tianji'), { recursive: true });
    fs.writeFileSync(
      path.join(home, 'tianji', 'profiles.json'),
      JSON.stringify({ current: 'default', profiles: { default: { server: 'http://127.0.0.1:9' } } }),
    );
  });
  afterAll(() => {
    process.env.XDG_CONFIG_HOME = saved.xdg;
    if (saved.profile !== undefined) process.env.TIANJI_PROFILE = saved.profile;
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('--version and -V print the version of the package, and succeed', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await tianji(flag);
      expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    }
  });

  it('every command’s help is Chinese and ends with 示例 (the root also lists the exit codes)', async () => {
    for (const cmd of allCommands(buildProgram())) {
      const where = commandPath(cmd);
      const r = await tianji(...where.split(' ').filter(Boolean), '--help');
      expect(r.code, where).toBe(0);
      expect(r.stdout, where).toMatch(/^用法： tianji/);
      expect(r.stdout, where).toMatch(/\n示例：\n( {2}# .*\n)* {2}\$ tianji /);
      expect(r.stdout, where).not.toMatch(COMMANDER_ENGLISH);
    }
    const root = await tianji('--help');
    expect(root.stdout).toMatch(/退出码：[\s\S]*\n {2}6 {2}要找的记录不存在/);
    expect(root.stdout).toContain('-V, --version     显示版本号');
  });

  it('every example is a command this CLI accepts, and every command has examples', async () => {
    const program = buildProgram({
      io: { writeOut: () => {}, writeErr: () => {} },
    });
    const paths = allCommands(program).map(commandPath);
    expect(Object.keys(EXAMPLES).sort()).toEqual([...paths].sort());
    // Every action becomes "note what ran", so an example is parsed, its options checked, and nothing is sent.
    let ran = '';
    for (const cmd of allCommands(program).filter((c) => c.commands.length === 0))
      cmd.action((...args: unknown[]) => {
        ran = commandPath(args[args.length - 1] as Command);
      });
    for (const [where, lines] of Object.entries(EXAMPLES)) {
      for (const line of lines.filter((l) => !l.startsWith('#'))) {
        const words = wordsOf(line);
        ran = '';
        await program.parseAsync(words, { from: 'user' });
        // An example under `users get` runs `users get` (a group's may run any of its commands).
        expect(ran, line).not.toBe('');
        expect(ran.startsWith(where), `${line} ran ${ran}`).toBe(true);
      }
    }
  });

  it.each([
    [['users', '--bogus'], '未知的选项 --bogus'],
    [['userz'], '未知的命令 userz（是不是要用 users？）'],
    [['users', 'list', '--page'], '选项 --page <n> 缺少取值'],
    [['users', 'list', '--page', 'x'], '选项 --page <n> 的取值 x 不合法：--page 必须是 1 到'],
    [['users', 'get'], '缺少参数 <user>'],
    [['users', 'get', 'a', 'b'], '参数过多：get 需要 1 个参数，给了 2 个'],
  ])('tianji %j is a usage error in Chinese (exit 2): %s', async (args, said) => {
    const r = await tianji(...args);
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toContain(`tianji: ${said}`);
    expect(r.stderr).toContain('（用 --help 查看用法和示例）');
    expect(r.stderr).not.toMatch(COMMANDER_ENGLISH);
  });

  it('with --json a usage error is one JSON object on stderr, nothing else', async () => {
    const r = await tianji('--json', 'users', 'list', '--page');
    expect(r.code).toBe(EXIT.USAGE);
    expect(JSON.parse(r.stderr)).toEqual({
      error: { code: 'USAGE', message: '选项 --page <n> 缺少取值', exitCode: EXIT.USAGE },
    });
  });

  it('--profile naming a profile that does not exist says so, where profiles live and how to make one', async () => {
    const r = await tianji('--profile', 'staging', 'whoami');
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toContain('配置 "staging" 不存在');
    expect(r.stderr).toContain('已有的配置：default');
    expect(r.stderr).toContain(path.join(home, 'tianji', 'profiles.json'));
    expect(r.stderr).toContain('tianji --profile staging login --server');
    expect(r.stderr).not.toContain('未登录');
    process.env.TIANJI_PROFILE = 'staging';
    try {
      const json = await tianji('--json', 'users', 'list');
      expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'PROFILE_NOT_FOUND', exitCode: EXIT.USAGE });
    } finally {
      delete process.env.TIANJI_PROFILE;
    }
  });

  it('a record the server does not have exits 6 NOT_FOUND with its message; a missing route stays 5', () => {
    const notFound = describeFailure(
      ApiError.fromBody(new Response(null, { status: 404 }), {
        code: 'NOT_FOUND',
        message: '用户不存在 (user not found)',
      }),
    );
    expect(notFound).toMatchObject({ exitCode: EXIT.NOT_FOUND, code: 'NOT_FOUND' });
    expect(notFound.message).toContain('用户不存在');
    const noRoute = describeFailure(
      ApiError.fromBody(new Response(null, { status: 404 }), { code: 'HTTP_404', message: 'Not Found' }),
    );
    expect(noRoute.exitCode).toBe(EXIT.SERVER);
  });
});
