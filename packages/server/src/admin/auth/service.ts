import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError, unauthorized } from '../../errors.js';
import { normalizeMask } from '../permissions/mask.js';
import { loadUserAccess, type UserAccess } from './access.js';
import { sha256, type TokenService } from './tokens.js';
import { usernameKey } from '../shared/username-key.js';

/** OWASP's minimum for argon2id: 19 MiB, 2 iterations, 1 lane. Runs on libuv's thread pool, off the event loop. */
// algorithm 2 = Argon2id (the package's const enum cannot be imported under isolatedModules).
const ARGON2 = { algorithm: 2 as const, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, ARGON2);

/** Verified against when the username is unknown, so a failed login takes the same time either way. */
let dummyHash: Promise<string> | undefined;
/** Computed once per process; awaited at start-up so not even the first unknown username answers faster. */
export const getDummyHash = () => (dummyHash ??= hash(randomUUID(), ARGON2));

/** A wrong password (login or password change): the sign-in throttle counts exactly these. */
export class CredentialError extends AppError {}

export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  try {
    return await verify(stored ?? (await getDummyHash()), password);
  } catch {
    return false;
  }
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export const nowIso = () => new Date().toISOString();

/** The user as the login and /me responses show it; the mask is normalised (-1 → 2^63-1). */
export function publicUser(a: UserAccess) {
  return {
    id: a.id,
    username: a.username,
    nickname: a.nickname,
    roles: a.roles,
    permissions: normalizeMask(a.aggregate),
  };
}

export class AuthService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly tokens: TokenService,
  ) {}

  /** Issues a pair; `family` ties every rotation of one login together so a replay can revoke them all. */
  async issuePair(userId: string, ver: number, client: ClientInfo, family: string = randomUUID(), db: Kysely<Database> = this.db): Promise<TokenPair> {
    const accessToken = await this.tokens.signAccess(userId, ver);
    const refresh = await this.tokens.signRefresh(userId, ver, family);
    await db
      .insertInto('refresh_tokens')
      .values({
        id: refresh.jti,
        user_id: userId,
        family_id: family,
        token_hash: sha256(refresh.token),
        expires_at: refresh.expiresAt.toISOString(),
        created_at: nowIso(),
        revoked_at: null,
        rotated_at: null,
        ip: client.ip.slice(0, 64),
        user_agent: client.userAgent.slice(0, 255),
      })
      .execute();
    return { accessToken, refreshToken: refresh.token };
  }

  /**
   * Unknown user, wrong password and disabled user give the same error and take about the same time
   * (a dummy hash is verified when the user does not exist).
   */
  async login(username: string, password: string, client: ClientInfo) {
    const row = await this.db.selectFrom('users').select(['id', 'password_hash', 'status']).where('username_key', '=', usernameKey(username)).executeTakeFirst();
    const ok = await verifyPassword(row?.password_hash, password);
    if (!row || !ok || row.status !== 'enabled') throw new CredentialError('UNAUTHORIZED', 'invalid username or password');
    const access = (await loadUserAccess(this.db, row.id))!;
    const pair = await this.issuePair(row.id, access.tokenVersion, client);
    return { ...pair, user: publicUser(access) };
  }

  /**
   * Rotates a refresh token. The conditional UPDATE makes rotation atomic: of N concurrent refreshes with one
   * token exactly one wins. A token that was already rotated is a replay: the whole family is revoked.
   */
  async refresh(token: string, client: ClientInfo): Promise<TokenPair> {
    const claims = await this.tokens.verifyRefresh(token);
    const tokenHash = sha256(token);
    const row = await this.db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    if (!row || row.id !== claims.jti || row.user_id !== claims.sub) throw unauthorized('refresh token not recognised');
    if (row.revoked_at) throw unauthorized('refresh token revoked');
    if (row.rotated_at) {
      await this.revokeFamily(row.family_id);
      throw unauthorized('refresh token reuse detected: this session has been revoked, sign in again');
    }
    const user = await this.db.selectFrom('users').select(['status', 'token_version']).where('id', '=', row.user_id).executeTakeFirst();
    if (!user || user.status !== 'enabled') throw unauthorized('user is disabled or no longer exists');
    if (Number(user.token_version) !== claims.ver) {
      await this.revokeFamily(row.family_id);
      throw unauthorized('token revoked: version mismatch, sign in again');
    }
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('refresh_tokens')
        .set({ rotated_at: nowIso() })
        .where('id', '=', row.id)
        .where('rotated_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw unauthorized('refresh token already used');
      return this.issuePair(row.user_id, claims.ver, client, row.family_id, trx);
    });
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.db.updateTable('refresh_tokens').set({ revoked_at: nowIso() }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
  }

  /**
   * Signs out the session of the presented refresh token: it and every token rotated from the same login die
   * (so signing out with a stale token of this session still ends it). Only the caller's own tokens are touched;
   * the access token lives until it expires.
   */
  async logout(userId: string, refreshToken: string | undefined): Promise<void> {
    if (!refreshToken) return;
    const row = await this.db.selectFrom('refresh_tokens').select('family_id').where('token_hash', '=', sha256(refreshToken)).where('user_id', '=', userId).executeTakeFirst();
    if (row) await this.revokeFamily(row.family_id);
  }

  /**
   * Bumps token_version and revokes every refresh token: all tokens on every device die at their next use.
   * Used by password change, administrator reset and disabling a user.
   */
  async invalidateSessions(userId: string, db: Kysely<Database> = this.db): Promise<number> {
    const row = await db
      .updateTable('users')
      .set((eb) => ({ token_version: eb('token_version', '+', 1), updated_at: nowIso() }))
      .where('id', '=', userId)
      .returning('token_version')
      .executeTakeFirst();
    await db.updateTable('refresh_tokens').set({ revoked_at: nowIso() }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    return Number(row?.token_version ?? 0);
  }

  async changePassword(userId: string, oldPassword: string, newPassword: string, client: ClientInfo): Promise<TokenPair> {
    if (oldPassword === newPassword) throw new AppError('VALIDATION_ERROR', 'newPassword must differ from oldPassword');
    const row = await this.db.selectFrom('users').select(['password_hash']).where('id', '=', userId).executeTakeFirstOrThrow();
    if (!(await verifyPassword(row.password_hash, oldPassword))) throw new CredentialError('VALIDATION_ERROR', 'oldPassword is incorrect');
    const passwordHash = await hashPassword(newPassword);
    return this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
      const ver = await this.invalidateSessions(userId, trx);
      return this.issuePair(userId, ver, client, undefined, trx);
    });
  }
}
