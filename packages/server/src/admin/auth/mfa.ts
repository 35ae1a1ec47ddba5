import { transact } from '../../db/transaction.js';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { conflict, validation } from '../../errors.js';
import { renderQrCode } from '../../engines/qr/qr-code.js';
import { CredentialError, verifyPassword } from './service.js';
import { isRecoveryCodeInput, newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpStep, totpUri } from './totp.js';

export interface TotpSetup {
  secret: string;
  otpauthUri: string;
  /** The URI as a QR code, `data:image/png;base64,…` (the /api/qrcode engine). */
  qrDataUrl: string;
}

/** How one's own account is proven before TOTP changes: the current password, or a 6-digit or recovery code. */
export interface TotpProof {
  password?: string;
  code?: string;
}

/** A wrong second factor: 401, counted by the sign-in throttle, logged as WRONG_TOTP. */
export const wrongCode = (userId: string) =>
  new CredentialError('UNAUTHORIZED', '两步验证码错误或已使用 (invalid TOTP or recovery code)', 'WRONG_TOTP', userId);

/**
 * TOTP second factor of one's own account: setup keeps a pending secret, enable confirms it with a code and hands
 * out the recovery codes (stored as hashes), verify accepts each time step and each recovery code once.
 */
export class MfaService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  private row(userId: string) {
    return this.db
      .selectFrom('users')
      .select(['username', 'password_hash', 'totp_secret', 'totp_enabled_at', 'totp_last_step'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
  }

  async setup(userId: string): Promise<TotpSetup> {
    const row = await this.row(userId);
    if (row.totp_enabled_at) throw conflict('两步验证已启用：如需更换密钥，请先停用 (TOTP is already enabled)');
    const secret = newTotpSecret();
    await this.db.updateTable('users').set({ totp_secret: secret }).where('id', '=', userId).execute();
    const otpauthUri = totpUri(secret, row.username);
    const qr = renderQrCode({
      text: otpauthUri,
      size: 240,
      format: 'png',
      level: 'M',
      margin: 2,
      color: '#000000',
      background: '#ffffff',
    });
    return { secret, otpauthUri, qrDataUrl: `data:image/png;base64,${qr.body.toString('base64')}` };
  }

  /** Confirms the pending secret with a current code; returns the ten recovery codes (shown once). */
  async enable(userId: string, code: string): Promise<string[]> {
    const row = await this.row(userId);
    if (row.totp_enabled_at) throw conflict('两步验证已启用 (TOTP is already enabled)');
    if (!row.totp_secret) throw validation('请先调用 POST /api/auth/totp/setup 获取密钥 (no pending TOTP secret)');
    const step = totpStep(row.totp_secret, code.trim(), this.now());
    if (step === null) throw validation('参数 code 无效：应为认证器当前显示的 6 位数字');
    return transact(this.db, async (trx) => {
      await trx
        .updateTable('users')
        .set({ totp_enabled_at: new Date(this.now()).toISOString(), totp_last_step: step })
        .where('id', '=', userId)
        .execute();
      return replaceRecoveryCodes(trx, userId);
    });
  }

  /** Turns TOTP off after proving the account: the current password or a valid code. */
  async disable(userId: string, proof: TotpProof): Promise<void> {
    await this.prove(userId, proof);
    await clearTotp(this.db, userId);
  }

  /**
   * Ten new recovery codes in place of the old ones (used or not), after proving the account as `disable` does:
   * for someone who used several, or fears a printout was seen. Shown once, like the first ten.
   */
  async regenerateRecoveryCodes(userId: string, proof: TotpProof): Promise<string[]> {
    await this.prove(userId, proof);
    return transact(this.db, (trx) => replaceRecoveryCodes(trx, userId));
  }

  /** TOTP changes of an account that has it: proven as proveOwner does; 409 when TOTP is off. */
  private async prove(userId: string, proof: TotpProof): Promise<void> {
    if (!(await this.row(userId)).totp_enabled_at) throw conflict('两步验证未启用 (TOTP is not enabled)');
    await this.proveOwner(userId, proof);
  }

  /**
   * The account's owner is proven by the current password or, with TOTP on, a valid code (a recovery code is used
   * up); else 400, counted by the sign-in throttle.
   */
  async proveOwner(userId: string, proof: TotpProof): Promise<void> {
    const row = await this.row(userId);
    const ok = proof.password
      ? await verifyPassword(row.password_hash, proof.password)
      : proof.code && row.totp_enabled_at
        ? await this.verify(userId, proof.code)
        : false;
    // Names the proof given, so the apps show the refusal under that field (「当前密码无效：密码不正确」).
    if (!ok)
      throw new CredentialError(
        'VALIDATION_ERROR',
        proof.password ? '参数 password 无效：密码不正确' : '参数 code 无效：验证码错误或已使用',
      );
  }

  /** How many of the user's recovery codes are still unused (told after a sign-in that used one). */
  async recoveryCodesLeft(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('mfa_recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Whether `code` (6 digits or a recovery code) is good for the user now; each step and recovery code works once. */
  async verify(userId: string, code: string): Promise<boolean> {
    const typed = code.trim();
    if (isRecoveryCodeInput(typed)) {
      const res = await this.db
        .updateTable('mfa_recovery_codes')
        .set({ used_at: new Date(this.now()).toISOString() })
        .where('user_id', '=', userId)
        .where('code_hash', '=', recoveryCodeHash(typed))
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    }
    const row = await this.row(userId);
    if (!row.totp_secret || !row.totp_enabled_at) return false;
    const step = totpStep(row.totp_secret, typed, this.now());
    if (step === null) return false;
    // Conditional update: a code already accepted (this step or a later one) is refused, even by a concurrent request.
    const res = await this.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}

/** Deletes the user's recovery codes and stores ten new ones (hashed); returns them, to be shown once. */
async function replaceRecoveryCodes(trx: Kysely<Database>, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
  await trx
    .insertInto('mfa_recovery_codes')
    .values(codes.map((c) => ({ id: randomUUID(), user_id: userId, code_hash: recoveryCodeHash(c), used_at: null })))
    .execute();
  return codes;
}

/** Removes TOTP from an account (disable, operator `reset-mfa`). */
export async function clearTotp(db: Kysely<Database>, userId: string): Promise<void> {
  await transact(db, (trx) => removeTotp(trx, userId));
}

/** Removes the secret and the recovery codes inside the caller's transaction (an operator's reset-totp). */
export async function removeTotp(trx: Kysely<Database>, userId: string): Promise<void> {
  await trx
    .updateTable('users')
    .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null })
    .where('id', '=', userId)
    .execute();
  await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
}
