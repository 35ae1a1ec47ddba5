/**
 * The CLI driver: every step is a spawned `tianji` process (bundled from its sources once per test file) with its
 * own XDG_CONFIG_HOME, read through `--json` and the exit codes (0 done, 3 forbidden, 4 signed out).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleCli, runCli, startCli, type RunResult } from '../../../cli/test/cli-harness.js';
import { createSession, pointsIn, type MenuNode } from '../../src/index.js';
import { fileStorage } from '../../src/node.js';
import { findMenu, type ClientDriver, type Outcome, type ShownReason } from '../driver.js';
import type { World } from '../world.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tianji-behaviour-cli-'));
let bundled: Promise<string> | undefined;

/** What the CLI said on stderr: with --json `{"error":{"code","message","exitCode"}}`, else `tianji: <message>`. */
function errorOf(r: RunResult): { code?: string; message: string } {
  try {
    return (JSON.parse(r.stderr) as { error: { code: string; message: string } }).error;
  } catch {
    return { message: r.stderr.trim().replace(/^tianji: /, '') };
  }
}

/** `会话已结束：<message> (<CODE>)；请重新运行 tianji login（session ended）` → the server's code and message. */
function reasonOf(r: RunResult): ShownReason {
  const said = errorOf(r);
  const m = /会话已结束：(.+?) \(([A-Z_]+)\)；/.exec(said.message);
  return m ? { code: m[2], message: m[1] } : { message: said.message };
}

function outcomeOf(r: RunResult): Outcome {
  if (r.code === 0) return { kind: 'ok' };
  if (r.code === 3) {
    const said = errorOf(r).message;
    return { kind: 'forbidden', message: /^(.+?) \(/.exec(said)?.[1] ?? said };
  }
  if (r.code === 4) return { kind: 'signed-out', ...reasonOf(r) };
  throw new Error(`tianji exited ${r.code}: ${r.stderr}`);
}

export async function cliDriver(world: World): Promise<ClientDriver> {
  bundled ??= bundleCli(root);
  const bundle = await bundled;
  const home = fs.mkdtempSync(path.join(root, 'home-'));
  const tianji = (args: string[], stdin?: string) => runCli(bundle, args, { home, stdin });
  let loginSaidMustChange = false;
  let notice: string | null = null;
  const ok = async (args: string[]) => {
    const r = await tianji(args);
    if (r.code !== 0) throw new Error(`tianji ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return r;
  };
  return {
    kind: 'cli',
    async signIn(username, password, totp) {
      notice = null;
      const args = ['login', '--server', world.baseUrl, '--username', username, '--password-stdin', '--json'];
      const r = await tianji(totp ? [...args, '--totp', totp()] : args, password);
      if (r.code !== 0) throw new Error(`tianji login exited ${r.code}: ${r.stderr}`);
      const said = JSON.parse(r.stdout) as { mustChangePassword?: boolean; securityNotice?: string };
      loginSaidMustChange = said.mustChangePassword === true;
      notice = said.securityNotice ?? null;
      if (loginSaidMustChange && !/必须先修改密码/.test(r.stderr))
        throw new Error(`tianji login printed no notice: ${r.stderr}`);
    },
    // No browser of its own: it signs in through one (scenario passkey-sign-in: does not apply).
    async addPasskey() {
      throw new Error('the CLI has no authenticator of its own');
    },
    async signInWithPasskey() {
      throw new Error('the CLI has no authenticator of its own');
    },
    async signInApprovedElsewhere(decide) {
      notice = null;
      loginSaidMustChange = false;
      const cli = startCli(bundle, ['login', '--web', '--server', world.baseUrl, '--json'], { home });
      const [, userCode] = await cli.waitFor(/并输入代码：([A-Z]{4}-[A-Z]{4})/);
      await decide(userCode);
      const r = await cli.done;
      if (r.code !== 0) throw new Error(errorOf(r).message);
    },
    securityNotice: async () => notice,
    // What `tianji login` said, while the next command is still refused for it (every command reads the user anew).
    async mustChangePassword() {
      if (!loginSaidMustChange) return false;
      const r = await tianji(['users', 'list', '--json']);
      return r.code === 3 && r.stderr.includes('PASSWORD_CHANGE_REQUIRED');
    },
    // `tianji password` prompts on a terminal only: the nearest surface is the same PUT /api/auth/password made with
    // the CLI's own stored session (the SDK it is built on), whose fresh refresh token goes back into its profile.
    async changeOwnPassword(oldPassword, newPassword) {
      const storage = fileStorage(path.join(home, 'tianji', 'credentials', 'default'));
      const session = createSession({ baseUrl: world.baseUrl, storage });
      try {
        if (!(await session.restore())) throw new Error('the CLI profile holds no live session');
        await session.changePassword(oldPassword, newPassword);
      } finally {
        session.close();
      }
    },
    async identity() {
      const r = await ok(['whoami', '--json']);
      const me = JSON.parse(r.stdout) as { username: string; roles: Array<{ name: string; code: string }> };
      // JSON.parse would round the 64-bit mask: read its digits from the text, as a script would.
      const mask = /"permissions": (\d+)/.exec(r.stdout)?.[1] ?? '';
      return { shownName: me.username, roles: me.roles.map((x) => x.name), mask };
    },
    async visibleActions(menu) {
      const menus = JSON.parse((await ok(['menus', 'tree', '--json'])).stdout) as MenuNode[];
      const node = findMenu(menus, menu);
      return node ? pointsIn(node.permissions) : null;
    },
    // Every command reads /api/auth/me anew: there is nothing to reload between commands.
    async refreshMenus() {},
    async doAction(_route, targetUsername) {
      return outcomeOf(await tianji(['users', 'enable', targetUsername, '--json']));
    },
    async prepareConcurrent() {},
    async concurrentActions(n) {
      const runs = await Promise.all(
        Array.from({ length: n }, (_, i) => tianji(i % 2 ? ['users', 'list', '--json'] : ['whoami', '--json'])),
      );
      return runs.map(outcomeOf);
    },
    async storedRefreshToken() {
      return fs.readFileSync(path.join(home, 'tianji', 'credentials', 'default'), 'utf8').trim();
    },
    async logout() {
      await ok(['logout']);
    },
    // Not on a terminal, so no hidden prompt: the command says to pass --password-stdin, and is run again with it.
    async enrolTotp(password, authenticator) {
      let setup = await tianji(['totp', 'setup', '--json']);
      const askedForPassword = setup.code === 3 && errorOf(setup).code === 'REAUTH_REQUIRED';
      if (askedForPassword) {
        if (!errorOf(setup).message.includes('--password-stdin'))
          throw new Error(`tianji totp setup did not say how to give the password: ${setup.stderr}`);
        setup = await tianji(['totp', 'setup', '--password-stdin', '--json'], `${password}\n`);
      }
      if (setup.code !== 0) throw new Error(`tianji totp setup exited ${setup.code}: ${setup.stderr}`);
      const { secret } = JSON.parse(setup.stdout) as { secret: string };
      const enable = await ok(['totp', 'enable', '--code', authenticator(secret), '--json']);
      return {
        askedForPassword,
        recoveryCodes: (JSON.parse(enable.stdout) as { recoveryCodes: string[] }).recoveryCodes,
      };
    },
    async signedIn() {
      return (await tianji(['whoami', '--json'])).code === 0;
    },
    async shownReason() {
      const r = await tianji(['whoami', '--json']);
      if (r.code === 0) return null;
      if (r.code !== 4) throw new Error(`tianji whoami exited ${r.code}: ${r.stderr}`);
      return reasonOf(r);
    },
    async close() {
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
