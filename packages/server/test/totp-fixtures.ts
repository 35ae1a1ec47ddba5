import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../src/db/index.js';
import { totpCode } from '../src/admin/auth/totp.js';
import { bearer } from './helpers.js';
import { USER_PASSWORD, insertUser } from './auth-fixtures.js';
import { createRole, createUser, type Call } from './admin-fixtures.js';

/**
 * A new user (password USER_PASSWORD) with two-step sign-in on, enabled with the previous time step's code (accepted:
 * ±30 s) so that the current code is still unused for a sign-in right after.
 */
export async function enrolledUser(app: FastifyInstance, db: Db, username: string) {
  await insertUser(db, username);
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password: USER_PASSWORD },
  });
  const token = login.json().data.accessToken;
  const { secret } = (await app.inject({ method: 'POST', url: '/api/auth/totp/setup', headers: bearer(token) })).json()
    .data;
  const enable = await app.inject({
    method: 'POST',
    url: '/api/auth/totp/enable',
    headers: bearer(token),
    payload: { code: totpCode(secret, Date.now() - 30_000) },
  });
  expect(enable.statusCode, enable.body).toBe(200);
  return { username, secret: secret as string, recoveryCodes: enable.json().data.recoveryCodes as string[] };
}

/**
 * A downloaded recovery-code file as the apps save it: `tianji-恢复码-<username>.txt`, a Chinese first line naming the
 * user and today's date and time in Beijing, then every code on a line of its own.
 */
export function expectRecoveryCodesFile(file: { name: string; text: string }, username: string, codes: string[]) {
  expect(file.name).toBe(`tianji-恢复码-${username}.txt`);
  const [header] = file.text.split('\n');
  const beijingDay = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  expect(header).toContain(username);
  expect(header).toMatch(new RegExp(`恢复码.*${beijingDay} \\d{2}:\\d{2} 北京时间`));
  expect(codes).toHaveLength(10);
  for (const c of codes) expect(file.text).toContain(`\n${c}\n`);
}

/**
 * Someone who holds the password of `username` (USER_PASSWORD) gets past the first step `n` times and enters a wrong
 * code each time: the owner's next sign-in answers with `securityNotice`.
 */
export async function wrongSecondStepCodes(app: FastifyInstance, username: string, n: number) {
  for (let i = 0; i < n; i++) {
    const first = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password: USER_PASSWORD },
    });
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/auth/login/totp',
      payload: { mfaToken: first.json().data.mfaToken, code: '000000' },
    });
    expect(wrong.statusCode, wrong.body).toBe(401);
  }
}

/**
 * A new member (password PASSWORD of admin-fixtures) of a new role that requires two-step sign-in and may read the
 * sessions and the API usage (so that the home page, once enrolled, has numbers): they have not turned it on yet, so
 * every admin route but the enrolment's answers 403 TOTP_SETUP_REQUIRED.
 */
export async function totpRoleMember(admin: Call, username: string): Promise<string> {
  const role = await createRole(admin, `r_${username}`, { 'system:session': 1, 'monitor:api': 1 });
  const required = await admin('PATCH', `/api/roles/${role}`, { requireTotp: true });
  expect(required.statusCode, required.body).toBe(200);
  return createUser(admin, username, [role]);
}
