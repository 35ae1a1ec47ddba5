import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../src/admin/auth/service.js';
import type { Db } from '../src/db/index.js';
import { usernameKey } from '../src/admin/shared/username-key.js';
import { REAUTH_WINDOW_MS } from '../src/admin/auth/reauth.js';

/**
 * Helpers for the authentication suites. Users are written straight into the database (the way an operator or a
 * migration would), so these suites depend on nothing but the auth API itself.
 */

/** The suites sign their own tokens with this secret: getTestInstance(dialect, { JWT_SECRET }). */
export const JWT_SECRET = 'auth-suite-secret-0123456789abcdef-0123456789';
export const SECRET_BYTES = new TextEncoder().encode(JWT_SECRET);
export const USER_PASSWORD = 'user-password-123';

let hashed: Promise<string> | undefined;

/** Inserts an enabled user without roles (one argon2 hash per process, shared by every user made here). */
export async function insertUser(
  db: Db,
  username: string,
  opts: { status?: 'enabled' | 'disabled' } = {},
): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await db.kysely
    .insertInto('users')
    .values({
      id,
      username,
      username_key: usernameKey(username),
      nickname: username,
      password_hash: await (hashed ??= hashPassword(USER_PASSWORD)),
      status: opts.status ?? 'enabled',
      token_version: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export interface Session {
  accessToken: string;
  refreshToken: string;
}

export async function signIn(
  app: FastifyInstance,
  username: string,
  password = USER_PASSWORD,
  remoteAddress?: string,
): Promise<Session> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password },
    remoteAddress,
  });
  if (res.statusCode !== 200) throw new Error(`sign-in as ${username} failed: ${res.statusCode} ${res.body}`);
  const { accessToken, refreshToken } = res.json().data;
  return { accessToken, refreshToken };
}

/**
 * Moves every sign-in of the user `ms` into the past (by default just beyond the re-authentication window) and
 * forgets later proofs of identity: its sessions then get 403 REAUTH_REQUIRED for account-security changes until
 * POST /api/auth/reauth (admin/auth/reauth.ts), as a sign-in of an hour ago would.
 */
export async function ageSignIns(db: Db, userId: string, ms = REAUTH_WINDOW_MS + 60_000): Promise<void> {
  await db.kysely
    .updateTable('sessions')
    .set({ created_at: new Date(Date.now() - ms).toISOString(), reauthenticated_at: null })
    .where('user_id', '=', userId)
    .execute();
}

export const me = (app: FastifyInstance, token: string) =>
  app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

export const refresh = (app: FastifyInstance, refreshToken: string) =>
  app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });

/**
 * Asserts the admin API's 401: `{code, message}` with a message saying what was wrong, and the reason code
 * (UNAUTHORIZED for a missing or malformed token; SESSION_ENDED, FORCED_LOGOUT, ... when the server knows why).
 */
export function expectUnauthorized(res: LightMyRequestResponse, reason: RegExp, code = 'UNAUTHORIZED') {
  expect(res.statusCode, res.body).toBe(401);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['code', 'message']);
  expect(body.code).toBe(code);
  expect(body.message).toMatch(reason);
}

const segment = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** The decoded header and payload of a compact JWT, and its raw signature segment. */
export function decode(token: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signature: string;
} {
  const [h, p, signature] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString()),
    payload: JSON.parse(Buffer.from(p, 'base64url').toString()),
    signature,
  };
}

/** Re-encodes header and payload and glues on `signature` unchanged, as a forger without the key would. */
export const forge = (header: unknown, payload: unknown, signature: string) =>
  `${segment(header)}.${segment(payload)}.${signature}`;
