/** login, whoami, logout: the session of the current profile. */
import { hostname } from 'node:os';
import { ApiError, DeviceLoginError, MfaRequiredError, toMask, type Me } from '@tianji/client';
import type { Command } from 'commander';
import { readProfiles, writeProfiles } from '../config.js';
import { action, openContext, type Context, type GlobalOptions } from '../context.js';
import { CliError, describeFailure, EXIT, emit, fields, PENDING_STEPS, usageError } from '../output.js';
import { ask, password } from '../prompt.js';
import { interactive } from '../config.js';

/** Identity, roles and the aggregate mask (exact digits: the super administrator's is 9223372036854775807). */
export function identity(me: Me) {
  return {
    id: me.id,
    username: me.username,
    nickname: me.nickname,
    roles: me.roles,
    permissions: toMask(me.permissions),
  };
}

function identityText(me: Me, server: string, profile: string): string {
  const who = identity(me);
  return fields([
    ['用户名', who.username],
    ['昵称', who.nickname],
    ['ID', who.id],
    ['角色', who.roles.map((r) => `${r.name}（${r.code}）`).join('、') || '（无）'],
    ['权限掩码', who.permissions],
    ['服务器', server],
    ['配置', profile],
  ]);
}

function parseServer(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`--server 必须是 http:// 或 https:// 开头的地址（got ${value}）`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw usageError(`--server 必须是 http:// 或 https:// 开头的地址（got ${value}）`);
  return url.origin;
}

interface LoginOptions {
  server?: string;
  username?: string;
  passwordStdin?: boolean;
  totp?: string;
  web?: boolean;
}

/** Username and password (and the TOTP step when the account has it). */
async function passwordLogin(ctx: Context, opts: LoginOptions): Promise<{ me: Me; username: string }> {
  const username =
    opts.username ??
    ctx.settings.username ??
    (interactive() && !opts.passwordStdin ? await ask('用户名 (username): ') : undefined);
  if (!username) throw usageError('需要 --username（username required）');
  // Say whose password is asked for, and by which server: a saved profile fills both in silently.
  const pw = await password(
    opts.passwordStdin,
    `${username} @ ${ctx.settings.server} 的密码（password for ${username} at ${ctx.settings.server}）: `,
  );
  try {
    return { me: await ctx.session.login(username, pw), username };
  } catch (e) {
    if (e instanceof ApiError && e.status === 401)
      throw new CliError(
        EXIT.SIGNED_OUT,
        `登录失败：用户名或密码错误（wrong username or password for ${username} at ${ctx.settings.server}）`,
        'WRONG_CREDENTIALS',
      );
    if (!(e instanceof MfaRequiredError)) throw e;
    const code =
      opts.totp ??
      (interactive() && !opts.passwordStdin ? (await ask('两步验证码 (TOTP code or recovery code): ')).trim() : '');
    if (!code) throw usageError('该账号已启用两步验证：请用 --totp <验证码> 提供（TOTP code required）');
    const me = await ctx.session.loginTotp(e.mfaToken, code).catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 401)
        throw new CliError(EXIT.SIGNED_OUT, `登录失败：${err.message}`, 'WRONG_TOTP');
      throw err;
    });
    return { me, username };
  }
}

/** Where the person reads the code: stderr, so that stdout holds only the result (and --json stays one object). */
export interface WebLoginIo {
  write(text: string): void;
  /** A terminal: a progress line that rewrites itself. */
  tty: boolean;
}

/**
 * `tianji login --web`: the device flow (RFC 8628). Prints the link and the code, waits while the person approves it
 * in a signed-in browser (a progress line on a terminal only), and returns the approver. A refusal or an expired code
 * is CliError SIGNED_OUT with the server's Chinese message.
 */
export async function webLogin(
  ctx: Context,
  username: string | undefined,
  io: WebLoginIo = { write: (t) => process.stderr.write(t), tty: Boolean(process.stderr.isTTY) },
): Promise<Me> {
  const start = await ctx.session.startDeviceLogin({
    clientName: `tianji 命令行 · ${hostname()}`.slice(0, 64),
    ...(username ? { username } : {}),
  });
  const minutes = Math.round(start.expiresIn / 60);
  io.write(
    `请在已登录的浏览器中打开 ${start.verificationUri} 并输入代码：${start.userCode}（${minutes} 分钟内有效）\n` +
      `或直接打开：${start.verificationUriComplete}\n` +
      (username ? `只有用户 ${username} 可以批准。\n` : '') +
      `(Open ${start.verificationUri} in a signed-in browser and enter the code ${start.userCode}.)\n`,
  );
  const began = Date.now();
  const progress = () => {
    if (io.tty) io.write(`\r等待批准… 已等待 ${Math.round((Date.now() - began) / 1000)} 秒 (waiting for approval)`);
  };
  progress();
  try {
    return await ctx.session.completeDeviceLogin(start, { onPending: progress });
  } catch (e) {
    if (e instanceof DeviceLoginError) throw new CliError(EXIT.SIGNED_OUT, `登录失败：${e.message}`, e.refusal);
    // The approving account changed (new password, disabled) between the approval and this poll.
    if (e instanceof ApiError && e.status === 401)
      throw new CliError(EXIT.SIGNED_OUT, `登录失败：${e.message}`, e.code);
    throw e;
  } finally {
    if (io.tty) io.write('\r\x1b[K');
  }
}

/** Saves the profile and says who is signed in: the same for every way of signing in. */
function finishLogin(ctx: Context, me: Me, username: string): void {
  const file = readProfiles();
  file.profiles[ctx.profile] = { server: ctx.settings.server, username };
  file.current ??= ctx.profile;
  writeProfiles(file);
  const notice = ctx.session.securityNotice;
  const codesLeft = ctx.session.recoveryCodesLeft;
  emit(
    {
      json: {
        ...identity(me),
        mustChangePassword: me.mustChangePassword,
        totpSetupRequired: me.totpRequired && !me.totpEnabled && !me.passkeyVerified,
        ...(notice ? { securityNotice: notice } : {}),
        ...(codesLeft !== null ? { recoveryCodesLeft: codesLeft } : {}),
      },
      text: `已登录：${me.username} @ ${ctx.settings.server}（配置 ${ctx.profile}）`,
    },
    ctx.json,
  );
  // The server's warning of wrong second-step codes since the last sign-in, said once: where to look next.
  if (notice)
    process.stderr.write(
      `安全提醒：${notice}\n` +
        '查看登录设备：tianji sessions list；结束可疑的登录：tianji sessions end <ID>\n' +
        '(Security notice: review your sessions with `tianji sessions list`.)\n',
    );
  // Signed in with a recovery code: how many are left, and the command that makes new ones.
  if (codesLeft !== null)
    process.stderr.write(
      `注意：已使用恢复码登录，还剩 ${codesLeft} 个恢复码；生成新的一组：tianji totp recovery-codes` +
        `（signed in with a recovery code; ${codesLeft} left）\n`,
    );
  // Something the account must do before any other command: which command does it.
  const pending = ctx.session.pendingStep;
  if (pending) process.stderr.write(`注意：${PENDING_STEPS[pending]}\n`);
}

export function register(program: Command): void {
  program
    .command('login')
    .description('登录并保存凭据（sign in and keep the credentials for this profile）')
    .option('--server <url>', '服务器地址，如 https://tianji.example.com')
    .option('--username <name>', '用户名（与 --web 同用时：只有该用户可以批准）')
    .option('--password-stdin', '从标准输入读取密码（for scripts）')
    .option('--totp <code>', '两步验证码或恢复码（TOTP code; asked for when needed and not given）')
    .option('--web', '在已登录的浏览器或手机上批准本次登录，不输入密码（sign in by approving a code in a browser）')
    .action(async (opts: LoginOptions, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      if (opts.web && (opts.passwordStdin || opts.totp !== undefined))
        throw usageError(
          '--web 不能与 --password-stdin 或 --totp 同时使用：浏览器批准不需要密码（--web takes no password）',
        );
      const server = opts.server === undefined ? undefined : parseServer(opts.server);
      const ctx = openContext(g, server, { create: true });
      try {
        if (opts.web) {
          const me = await webLogin(ctx, opts.username);
          finishLogin(ctx, me, me.username);
        } else {
          const { me, username } = await passwordLogin(ctx, opts);
          finishLogin(ctx, me, username);
        }
      } catch (e) {
        throw describeFailure(e, ctx.rejection, ctx.settings.server);
      } finally {
        ctx.session.close();
      }
    });

  program
    .command('password')
    .description('修改自己的密码（change your own password; prompts without echo）')
    .action(
      action(async (ctx) => {
        if (!interactive()) throw usageError('tianji password 需要在终端里运行（needs a terminal to prompt）');
        const oldPassword = await password(false, '当前密码 (current password): ');
        const newPassword = await password(false, '新密码 (new password): ');
        if ((await password(false, '再次输入新密码 (repeat new password): ')) !== newPassword)
          throw usageError('两次输入的新密码不一致（the new passwords differ）');
        await ctx.session.changePassword(oldPassword, newPassword);
        return {
          json: { changed: true },
          text: '密码已修改；其他设备上的会话已全部退出，本机保持登录（password changed; other devices signed out）',
        };
      }),
    );

  program
    .command('whoami')
    .description('当前身份、角色与权限掩码（identity, roles, aggregate mask）')
    .action(
      action(async (ctx) => {
        const me = await ctx.session.me();
        return { json: identity(me), text: identityText(me, ctx.settings.server, ctx.profile) };
      }),
    );

  program
    .command('logout')
    .description('退出登录并吊销本机的会话（sign out; the server revokes this session）')
    .action(
      action(async (ctx) => {
        const was = (await ctx.storage.load()) !== null;
        await ctx.session.logout();
        return { json: { signedOut: true, wasSignedIn: was }, text: was ? '已退出登录' : '本来就未登录' };
      }),
    );
}
