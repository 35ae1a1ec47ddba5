import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import type { Database, SignInMethod } from '../../db/schema.js';
import { AppError, fieldError, isSignedOutCode, signedOut, unauthorized, type SignedOutCode } from '../../errors.js';
import { deviceLabel, type ClientKind } from '../sessions/device.js';
import { versionReason } from './guard.js';
import { normalizeMask } from '../permissions/mask.js';
import { loadUserAccess, type UserAccess } from './access.js';
import { sha256, type TokenService } from './tokens.js';
import { usernameKey } from '../shared/username-key.js';
import { lockForWrite } from '../shared/query.js';
import { dialectOf, transact } from '../../db/transaction.js';

/** OWASP's minimum for argon2id: 19 MiB, 2 iterations, 1 lane. Runs on libuv's thread pool, off the event loop. */
// algorithm 2 = Argon2id (the package's const enum cannot be imported under isolatedModules).
const ARGON2 = { algorithm: 2 as const, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, ARGON2);

/** Verified against when the username is unknown, so a failed login takes the same time either way. */
let dummyHash: Promise<string> | undefined;
/** Computed once per process; awaited at start-up so not even the first unknown username answers faster. */
export const getDummyHash = () => (dummyHash ??= hash(randomUUID(), ARGON2));

/** Why a sign-in failed, for the login log only: the caller always gets the same answer. */
export type CredentialFailure =
  | 'UNKNOWN_USER'
  | 'WRONG_PASSWORD'
  | 'ACCOUNT_DISABLED'
  | 'WRONG_TOTP'
  | 'PASSKEY_INVALID'
  | 'PASSKEY_UNKNOWN';

/**
 * The account changed (password changed or reset, disabled, TOTP reset, deleted) between the check of a sign-in's
 * factors and the start of its session: nothing is issued, and the person signs in again against the account as it
 * is now. Not a wrong password, so the sign-in throttle does not count it; the login log files it as ACCOUNT_CHANGED.
 */
export class SignInSuperseded extends AppError {
  constructor() {
    super('UNAUTHORIZED', '登录期间账号的安全设置发生了变化（密码、状态或两步验证），请重新登录');
  }
}

/** A wrong password (login or password change): the sign-in throttle counts exactly these. */
export class CredentialError extends AppError {
  constructor(
    code: 'UNAUTHORIZED' | 'VALIDATION_ERROR',
    message: string,
    readonly failure: CredentialFailure = 'WRONG_PASSWORD',
    readonly userId: string | null = null,
  ) {
    super(code, message);
  }
}

export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  try {
    return await verify(stored ?? (await getDummyHash()), password);
  } catch {
    return false;
  }
}

/**
 * How a sign-in proved who it is: the session's method, its RFC 8176 method references (carried by every access token
 * the session gets, see guard.ts pendingOf) and the passkey used, if one was.
 */
export interface SignInProof {
  method: SignInMethod;
  amr: readonly string[];
  passkeyId?: string | null;
}
export const PASSWORD_PROOF: SignInProof = { method: 'password', amr: ['pwd'] };
export const TOTP_PROOF: SignInProof = { method: 'password', amr: ['pwd', 'otp'] };
/** A passkey with user verification: possession of a hardware-bound key, and the user (PIN or biometrics). */
export const passkeyProof = (passkeyId: string): SignInProof => ({
  method: 'passkey',
  amr: ['hwk', 'user'],
  passkeyId,
});
/** A session's amr column as a list. */
export const amrOf = (column: string | null | undefined) => (column ? column.split(',') : ['pwd']);

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
  /** From the X-Client-Kind header; `other` when absent or unknown. */
  clientKind: ClientKind;
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

/** Why a session ended: a 401 code its tokens answer with, or LOGOUT (its holder signed out; see guard.ts). */
export type EndReason = SignedOutCode | 'LOGOUT';

/** Which sessions to end: one or several by id (optionally only a given user's), or every session of a user. */
export type SessionScope =
  | { ids: string[]; userId?: string; exceptId?: string }
  | { userId: string; exceptId?: string };

/** A session that was just ended, for the listeners (login log, instant notice). */
export interface EndedSession {
  id: string;
  userId: string;
  reason: EndReason;
  by: string | null;
}

export interface AuthServiceOptions {
  /** The clock (tests move it); default Date.now. */
  now?: () => number;
  /** A replay of a refresh token this soon after its own rotation is a lost race, not theft (ms; default 10 s). */
  refreshGraceMs?: number;
}

/**
 * The sessions' rows, locked until the transaction ends: the first lock of everything that changes a session, its
 * tokens or its user's token_version (CONVENTIONS, Concurrency). In id order, so that two transactions ending
 * overlapping sets queue one behind the other instead of deadlocking.
 */
function lockSessions(db: Kysely<Database>, ids?: string[]) {
  let q = db.selectFrom('sessions').select(['id', 'user_id', 'ended_at']).orderBy('id');
  if (ids) q = q.where('id', 'in', ids);
  return lockForWrite(q, dialectOf(db));
}

export class AuthService {
  private readonly now: () => number;
  private readonly graceMs: number;
  private readonly endedListeners = new Set<(ended: EndedSession[]) => Promise<void>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly tokens: TokenService,
    opts: AuthServiceOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.graceMs = opts.refreshGraceMs ?? 10_000;
  }

  /** The service clock as an ISO instant. */
  readonly iso = () => new Date(this.now()).toISOString();

  /** Calls fn with every batch of sessions ended, after the write; the action waits for it (fn must not throw). */
  onSessionsEnded(fn: (ended: EndedSession[]) => Promise<void>): void {
    this.endedListeners.add(fn);
  }

  /** Issues a pair for session `sessionId`; every rotation of one sign-in keeps the session id as its family. */
  private async issuePair(
    userId: string,
    ver: number,
    sessionId: string,
    db: Kysely<Database>,
    client: ClientInfo,
    amr: readonly string[],
  ): Promise<{ pair: TokenPair; expiresAt: string }> {
    const accessToken = await this.tokens.signAccess(userId, ver, sessionId, amr);
    const refresh = await this.tokens.signRefresh(userId, ver, sessionId);
    const expiresAt = refresh.expiresAt.toISOString();
    await db
      .insertInto('refresh_tokens')
      .values({
        id: refresh.jti,
        user_id: userId,
        family_id: sessionId,
        token_hash: sha256(refresh.token),
        expires_at: expiresAt,
        created_at: this.iso(),
        revoked_at: null,
        rotated_at: null,
        ip: client.ip.slice(0, 64),
        user_agent: client.userAgent.slice(0, 255),
      })
      .execute();
    return { pair: { accessToken, refreshToken: refresh.token }, expiresAt };
  }

  /**
   * A new session (one sign-in) and its first pair, issued only while the user is enabled and still at token_version
   * `ver`: the version under which the caller checked the sign-in's factors. Runs in one transaction that holds the
   * user's row from that check to the commit, so a password change, reset, disable or TOTP reset either committed
   * before (the version moved: SignInSuperseded, nothing issued) or waits for this sign-in and then ends its session
   * (invalidateSessions looks again once it holds the row).
   */
  async startSession(
    userId: string,
    ver: number,
    client: ClientInfo,
    proof: SignInProof = PASSWORD_PROOF,
    db: Kysely<Database> = this.db,
  ): Promise<TokenPair & { sessionId: string }> {
    if (db === this.db) return transact(this.db, (trx) => this.startSession(userId, ver, client, proof, trx));
    const user = await lockForWrite(
      db.selectFrom('users').select(['status', 'token_version']).where('id', '=', userId),
      dialectOf(db),
    ).executeTakeFirst();
    if (user?.status !== 'enabled' || Number(user.token_version) !== ver) throw new SignInSuperseded();
    const sessionId = randomUUID();
    const now = this.iso();
    const userAgent = client.userAgent.slice(0, 255);
    await db
      .insertInto('sessions')
      .values({
        id: sessionId,
        user_id: userId,
        created_at: now,
        last_used_at: now,
        expires_at: now,
        ip: client.ip.slice(0, 64),
        user_agent: userAgent,
        client_kind: client.clientKind,
        device_label: deviceLabel(userAgent),
        sign_in_method: proof.method,
        amr: proof.amr.join(','),
        passkey_id: proof.passkeyId ?? null,
      })
      .execute();
    const { pair, expiresAt } = await this.issuePair(userId, ver, sessionId, db, client, proof.amr);
    await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', sessionId).execute();
    return { ...pair, sessionId };
  }

  /**
   * Unknown user, wrong password and disabled user give the same error and take about the same time
   * (a dummy hash is verified when the user does not exist).
   */
  async login(username: string, password: string, client: ClientInfo) {
    // The hash and the version are read together: whatever is issued below is issued at this version or not at all.
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'password_hash', 'status', 'token_version'])
      .where('username_key', '=', usernameKey(username))
      .executeTakeFirst();
    const ok = await verifyPassword(row?.password_hash, password);
    if (!row || !ok || row.status !== 'enabled') {
      const failure = !row ? 'UNKNOWN_USER' : !ok ? 'WRONG_PASSWORD' : 'ACCOUNT_DISABLED';
      throw new CredentialError('UNAUTHORIZED', 'invalid username or password', failure, row?.id ?? null);
    }
    const ver = Number(row.token_version);
    const access = await loadUserAccess(this.db, row.id);
    if (access?.tokenVersion !== ver) throw new SignInSuperseded();
    // The password was right; with TOTP on, only a short-lived token for POST /api/auth/login/totp comes back.
    if (access.totpEnabled) return { mfaRequired: true as const, mfaToken: await this.tokens.signMfa(row.id, ver) };
    return this.signIn(access, client, ver);
  }

  /**
   * Starts the session of a user who proved every factor asked of them, at `ver`, the token_version under which
   * the first factor was checked (the mfaToken carries it to the second step): the login result.
   */
  async signIn(access: UserAccess, client: ClientInfo, ver: number, proof: SignInProof = PASSWORD_PROOF) {
    const { sessionId, ...pair } = await this.startSession(access.id, ver, client, proof);
    return { ...pair, user: publicUser(access), mustChangePassword: access.mustChangePassword, sessionId };
  }

  /**
   * Rotates a refresh token. Everything happens under the lock of the token's session row (the lock order of
   * CONVENTIONS: session, then tokens, then user), so a rotation and the end of its session are one after the other,
   * never interleaved: a session that has ended issues nothing more, and an end revokes every token a rotation
   * committed before it. Of N concurrent refreshes with one token exactly one wins. A token presented again within
   * the grace window of its own rotation lost that race (401 REFRESH_SUPERSEDED, the session untouched); later, it
   * is a replay: the whole session ends (REFRESH_REUSED).
   */
  async refresh(token: string, client: ClientInfo): Promise<TokenPair> {
    const claims = await this.tokens.verifyRefresh(token);
    const tokenHash = sha256(token);
    const outcome = await transact(this.db, async (trx) => {
      const row = await trx
        .selectFrom('refresh_tokens')
        .select(['id', 'user_id', 'family_id'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (!row || row.id !== claims.jti || row.user_id !== claims.sub)
        throw unauthorized('refresh token not recognised');
      const session = await lockSessions(trx, [row.family_id]).select(['end_reason', 'amr']).executeTakeFirst();
      if (!session || session.ended_at !== null)
        throw signedOut(
          isSignedOutCode(session?.end_reason) ? session.end_reason : 'SESSION_ENDED',
          'refresh token revoked: its session has ended',
        );
      // Read again under the lock: the state a concurrent rotation or end committed before we got it.
      const tok = await trx
        .selectFrom('refresh_tokens')
        .select(['revoked_at', 'rotated_at'])
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      if (tok.revoked_at) throw signedOut('SESSION_ENDED', 'refresh token revoked');
      if (tok.rotated_at) {
        if (this.now() - Date.parse(tok.rotated_at) <= this.graceMs)
          throw signedOut('REFRESH_SUPERSEDED', 'refresh token already used by a concurrent request');
        return this.endUnder(trx, row.family_id, 'REFRESH_REUSED');
      }
      const user = await trx
        .selectFrom('users')
        .select(['status', 'token_version', 'sessions_end_reason'])
        .where('id', '=', row.user_id)
        .executeTakeFirst();
      if (!user) throw signedOut('SESSION_ENDED', 'user no longer exists');
      if (user.status !== 'enabled') throw signedOut('ACCOUNT_DISABLED', 'user is disabled');
      if (Number(user.token_version) !== claims.ver)
        return this.endUnder(trx, row.family_id, versionReason(user.sessions_end_reason));
      const now = this.iso();
      await trx.updateTable('refresh_tokens').set({ rotated_at: now }).where('id', '=', row.id).execute();
      const { pair, expiresAt } = await this.issuePair(
        row.user_id,
        claims.ver,
        row.family_id,
        trx,
        client,
        amrOf(session.amr),
      );
      await trx
        .updateTable('sessions')
        .set({ last_used_at: now, expires_at: expiresAt })
        .where('id', '=', row.family_id)
        .execute();
      return { pair };
    });
    if ('pair' in outcome) return outcome.pair;
    await this.announce(outcome.ended);
    throw outcome.refusal;
  }

  /** Ends a session whose token a refresh refuses, inside the refresh's transaction (committed, then announced). */
  private async endUnder(trx: Kysely<Database>, sessionId: string, reason: SignedOutCode) {
    const ended = await this.endSessions({ ids: [sessionId] }, reason, null, trx);
    const message =
      reason === 'REFRESH_REUSED'
        ? 'refresh token reuse detected: this session has been revoked, sign in again'
        : 'token revoked: version mismatch, sign in again';
    return { ended, refusal: signedOut(reason, message) };
  }

  /**
   * Ends the live sessions in `scope`: their rows are locked first (so a concurrent rotation either committed
   * before, and its new token is revoked here, or waits and finds the session ended), then every refresh token of
   * their families is revoked and (except after LOGOUT) their access tokens are refused from the next request.
   * Returns the sessions ended; listeners hear of them once `db` commits (right away when `db` is not a transaction,
   * in which case this runs in a transaction of its own, retried when PostgreSQL aborts it for a race).
   */
  async endSessions(
    scope: SessionScope,
    reason: EndReason,
    by: string | null,
    db: Kysely<Database> = this.db,
  ): Promise<EndedSession[]> {
    if ('ids' in scope && scope.ids.length === 0) return [];
    if (db === this.db) {
      const ended = await transact(this.db, (trx) => this.endSessions(scope, reason, by, trx));
      await this.announce(ended);
      return ended;
    }
    let q = lockSessions(db, 'ids' in scope ? scope.ids : undefined).where('ended_at', 'is', null);
    if (scope.userId !== undefined) q = q.where('user_id', '=', scope.userId);
    if (scope.exceptId !== undefined) q = q.where('id', '!=', scope.exceptId);
    const rows = await q.execute();
    if (rows.length > 0) {
      const ids = rows.map((r) => r.id);
      const now = this.iso();
      await db
        .updateTable('sessions')
        .set({ ended_at: now, end_reason: reason, ended_by: by })
        .where('id', 'in', ids)
        .execute();
      await db
        .updateTable('refresh_tokens')
        .set({ revoked_at: now })
        .where('family_id', 'in', ids)
        .where('revoked_at', 'is', null)
        .execute();
    }
    return rows.map((r) => ({ id: r.id, userId: r.user_id, reason, by }));
  }

  /** Tells the listeners about sessions ended inside a transaction that has now committed. */
  async announce(ended: EndedSession[]): Promise<void> {
    if (ended.length === 0) return;
    for (const fn of this.endedListeners) await fn(ended);
  }

  /**
   * Signs out the session of the presented refresh token: it and every token rotated from the same login die
   * (so signing out with a stale token of this session still ends it). Only the caller's own tokens are touched;
   * the access token lives until it expires (the contract).
   */
  async logout(userId: string, refreshToken: string | undefined): Promise<void> {
    if (!refreshToken) return;
    const row = await this.db
      .selectFrom('refresh_tokens')
      .select('family_id')
      .where('token_hash', '=', sha256(refreshToken))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (row) await this.endSessions({ ids: [row.family_id] }, 'LOGOUT', userId);
  }

  /**
   * Bumps token_version and ends every session: all tokens on every device die at their next use, with `reason`.
   * Used by password change, administrator reset, disabling a user and forced sign-out. Inside a transaction the
   * caller announces the returned sessions after commit.
   */
  async invalidateSessions(
    userId: string,
    db: Kysely<Database> = this.db,
    reason: SignedOutCode = 'PASSWORD_CHANGED',
    by: string | null = null,
  ): Promise<{ tokenVersion: number; ended: EndedSession[] }> {
    if (db === this.db) {
      const done = await transact(this.db, (trx) => this.invalidateSessions(userId, trx, reason, by));
      await this.announce(done.ended);
      return done;
    }
    // Sessions (and their tokens) before the user's row: the one lock order (see endSessions).
    const ended = await this.endSessions({ userId }, reason, by, db);
    const row = await db
      .updateTable('users')
      .set((eb) => ({
        token_version: eb('token_version', '+', 1),
        sessions_end_reason: reason,
        updated_at: this.iso(),
      }))
      .where('id', '=', userId)
      .returning('token_version')
      .executeTakeFirst();
    // A sign-in that held the user's row (startSession) made the update above wait and has committed its session
    // since the first look: end it too. Nothing can start one now, so this second look leaves no session behind.
    // (Its lock comes after the user's, against the order, but only a refresh of that brand-new session can hold
    // it, and a refresh never waits for the user's row.)
    ended.push(...(await this.endSessions({ userId }, reason, by, db)));
    return { tokenVersion: Number(row?.token_version ?? 0), ended };
  }

  /** The new session replaces `currentSessionId` (the one changing the password) and keeps its client kind. */
  async changePassword(
    userId: string,
    oldPassword: string,
    newPassword: string,
    client: ClientInfo,
    currentSessionId?: string,
  ): Promise<TokenPair> {
    if (oldPassword === newPassword) throw fieldError('newPassword', '新密码不能与原密码相同');
    const row = await this.db
      .selectFrom('users')
      .select(['password_hash'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    if (!(await verifyPassword(row.password_hash, oldPassword)))
      throw new CredentialError('VALIDATION_ERROR', 'oldPassword is incorrect');
    const passwordHash = await hashPassword(newPassword);
    const { pair, ended } = await transact(this.db, async (trx) => {
      const { tokenVersion, ended } = await this.invalidateSessions(userId, trx, 'PASSWORD_CHANGED', userId);
      await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, must_change_password: 0 })
        .where('id', '=', userId)
        .execute();
      const current = currentSessionId
        ? await trx
            .selectFrom('sessions')
            .select(['client_kind', 'sign_in_method', 'amr', 'passkey_id'])
            .where('id', '=', currentSessionId)
            .executeTakeFirst()
        : undefined;
      const kind = client.clientKind === 'other' && current ? (current.client_kind as ClientKind) : client.clientKind;
      // The new session stands in for the current one: it keeps how that one was opened (a passkey stays a passkey).
      const proof: SignInProof = current
        ? { method: current.sign_in_method, amr: amrOf(current.amr), passkeyId: current.passkey_id }
        : PASSWORD_PROOF;
      const { sessionId: _sid, ...pair } = await this.startSession(
        userId,
        tokenVersion,
        { ...client, clientKind: kind },
        proof,
        trx,
      );
      return { pair, ended };
    });
    await this.announce(ended);
    return pair;
  }
}
