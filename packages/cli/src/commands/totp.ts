/**
 * totp status|setup|enable|disable|recovery-codes (alias 2fa): one's own two-step sign-in. Enrolling needs a proof
 * of identity from the last ten minutes: when the server asks for it (REAUTH_REQUIRED), the current password is read
 * from a hidden prompt or --password-stdin, sent to POST /api/auth/reauth, and the command tried once more (the
 * SDK's withReauth). Turning TOTP off and new recovery codes always take the proof.
 */
import { ApiError, type IdentityProof } from '@tianji/client';
import type { Command } from 'commander';
import QRCode from 'qrcode';
import { interactive } from '../config.js';
import { action, type Context } from '../context.js';
import { CliError, EXIT, fields, usageError, type Output } from '../output.js';
import { ask, password } from '../prompt.js';

/** How a command may prove who the person is: the password from stdin, a code (--totp), or else a hidden prompt. */
export interface ProofOptions {
  passwordStdin?: boolean;
  totp?: string;
}

/**
 * The proof the person gives now: `--totp`, the password from stdin, or a hidden prompt on a terminal (after `why`).
 * Outside a terminal without either, a failure with `exitCode` and `code` that says which option gives it.
 */
export async function askProof(
  opts: ProofOptions,
  why: string,
  refusal: { exitCode: number; code: string; withTotp: boolean },
): Promise<IdentityProof> {
  if (opts.totp) return { code: opts.totp.trim() };
  if (!opts.passwordStdin && !interactive())
    throw new CliError(
      refusal.exitCode,
      `${why}。不在终端里运行时，请用 --password-stdin 从标准输入传入当前密码` +
        `${refusal.withTotp ? '，或用 --totp <验证码> 给出两步验证码或恢复码' : ''}` +
        '（the current password is needed: pass it with --password-stdin）',
      refusal.code,
    );
  if (!opts.passwordStdin) process.stderr.write(`${why}\n`);
  return { password: await password(opts.passwordStdin, '当前密码 (current password): ') };
}

/** Runs `call`; when the server answers REAUTH_REQUIRED, asks for the password, re-authenticates, tries once more. */
export function withReauth<T>(ctx: Context, opts: ProofOptions, call: () => Promise<T>): Promise<T> {
  return ctx.session.withReauth(call, (refused) =>
    askProof(opts, refused.message, { exitCode: EXIT.FORBIDDEN, code: refused.code, withTotp: false }),
  );
}

/** A refused proof or code (400) says what failed in the server's words, not as a server error. */
async function explained<T>(what: string, run: Promise<T>): Promise<T> {
  try {
    return await run;
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) throw new CliError(EXIT.SERVER, `${what}：${e.message}`, e.code);
    throw e;
  }
}

const SAVE_WARNING =
  '请立即把下面 10 个恢复码保存到安全的地方：它们只显示这一次，每个只能用一次，丢失认证器时可代替验证码登录。\n' +
  '(Save these recovery codes now: they are shown only once.)';

export async function runStatus(ctx: Context): Promise<Output> {
  const me = await ctx.session.me();
  const json = { totpEnabled: me.totpEnabled, totpRequired: me.totpRequired };
  const text = fields([
    ['两步验证', me.totpEnabled ? '已开启' : '未开启'],
    ['角色要求', me.totpRequired ? '是（必须开启）' : '否'],
  ]);
  const hint = me.totpEnabled ? '' : '\n开启：tianji totp setup，然后 tianji totp enable';
  return { json, text: text + hint };
}

export async function runSetup(ctx: Context, opts: ProofOptions, drawQr = process.stdout.isTTY): Promise<Output> {
  const setup = await explained(
    '验证身份失败',
    withReauth(ctx, opts, () => ctx.session.setupTotp()),
  );
  const qr =
    drawQr && !ctx.json ? `${await QRCode.toString(setup.otpauthUri, { type: 'terminal', small: true })}\n` : '';
  return {
    json: { secret: setup.secret, otpauthUri: setup.otpauthUri },
    text:
      `${qr}${fields([
        ['密钥', setup.secret],
        ['链接', setup.otpauthUri],
      ])}\n` +
      '用认证器 App 扫描二维码（或手动输入密钥），然后运行 tianji totp enable 输入 App 显示的 6 位验证码；' +
      '在此之前两步验证尚未开启（not enabled until tianji totp enable）',
  };
}

export interface EnableOptions extends ProofOptions {
  code?: string;
  signOutOthers?: boolean;
}

export async function runEnable(ctx: Context, opts: EnableOptions): Promise<Output> {
  const code =
    opts.code ??
    (interactive() && !opts.passwordStdin ? (await ask('认证器上的 6 位验证码 (6-digit code): ')).trim() : '');
  if (!code) throw usageError('需要认证器上的 6 位验证码：用 --code <验证码> 提供（code required）');
  if (!/^\d{6}$/.test(code)) throw usageError(`--code 必须是 6 位数字（got ${code}）`);
  const enabled = await explained(
    '开启失败',
    withReauth(ctx, opts, () => ctx.session.enableTotp(code, { signOutOthers: opts.signOutOthers })),
  );
  const others = enabled.signedOut > 0 ? `\n已退出其他 ${enabled.signedOut} 个设备上的登录` : '';
  return {
    json: { enabled: true, ...enabled },
    text: `两步验证已开启。${SAVE_WARNING}\n\n${enabled.recoveryCodes.join('\n')}${others}`,
  };
}

/** The proof of disable and recovery-codes, which the server always asks for. */
const proofFor = (opts: ProofOptions, why: string) =>
  askProof(opts, why, { exitCode: EXIT.USAGE, code: 'USAGE', withTotp: true });

export async function runDisable(ctx: Context, opts: ProofOptions): Promise<Output> {
  const proof = await proofFor(opts, '关闭两步验证需要验证身份：请输入当前密码');
  await explained('验证身份失败', ctx.session.disableTotp(proof));
  return { json: { disabled: true }, text: '两步验证已关闭，恢复码已全部作废' };
}

export async function runRecoveryCodes(ctx: Context, opts: ProofOptions): Promise<Output> {
  const proof = await proofFor(opts, '生成新的恢复码需要验证身份：请输入当前密码');
  const recoveryCodes = await explained('验证身份失败', ctx.session.regenerateRecoveryCodes(proof));
  return {
    json: { recoveryCodes },
    text: `已生成新的恢复码，之前的恢复码全部作废。${SAVE_WARNING}\n\n${recoveryCodes.join('\n')}`,
  };
}

export function register(program: Command): void {
  const totp = program
    .command('totp')
    .alias('2fa')
    .description('我的两步验证（TOTP two-step sign-in of your own account）');
  const stdinOption = ['--password-stdin', '需要验证身份时从标准输入读取当前密码（for scripts）'] as const;
  const totpOption = ['--totp <code>', '用两步验证码或恢复码代替密码验证身份'] as const;

  totp.command('status').description('是否已开启两步验证、角色是否要求开启').action(action(runStatus));

  totp
    .command('setup')
    .description('生成新的两步验证密钥，显示密钥、otpauth 链接和二维码（尚未开启，需再运行 enable）')
    .option(...stdinOption)
    .action(action((ctx, opts: ProofOptions) => runSetup(ctx, opts)));

  totp
    .command('enable')
    .description('用认证器上的验证码开启两步验证，并显示 10 个恢复码（只显示一次）')
    .option('--code <code>', '认证器上的 6 位验证码（不给则在终端里询问）')
    .option('--sign-out-others', '同时退出其他所有设备上的登录')
    .option(...stdinOption)
    .action(action(runEnable));

  totp
    .command('disable')
    .description('关闭两步验证（需要当前密码，或验证码 / 恢复码）')
    .option(...stdinOption)
    .option(...totpOption)
    .action(action(runDisable));

  totp
    .command('recovery-codes')
    .description('重新生成 10 个恢复码，之前的全部作废（需要当前密码，或验证码 / 恢复码）')
    .option(...stdinOption)
    .option(...totpOption)
    .action(action(runRecoveryCodes));
}
