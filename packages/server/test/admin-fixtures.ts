import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { bearer, login } from './helpers.js';

/** Test helpers for the administration resources: every fixture is built through the HTTP API, as a client would. */

export const PASSWORD = 'fixture-password-123';

export type Call = ((
  method: InjectOptions['method'],
  url: string,
  payload?: unknown,
) => Promise<LightMyRequestResponse>) & {
  app: FastifyInstance;
};

/** Requests as the holder of `token`. */
export const as = (app: FastifyInstance, token: string): Call =>
  Object.assign(
    (method: InjectOptions['method'], url: string, payload?: unknown) =>
      app.inject({
        method,
        url,
        headers: bearer(token),
        ...(payload === undefined ? {} : { payload: payload as object }),
      }),
    { app },
  );

export async function adminCall(app: FastifyInstance): Promise<Call> {
  return as(app, (await login(app)).accessToken);
}

/** menu code → id, over the whole tree. */
export async function menuIds(call: Call): Promise<Map<string, string>> {
  const res = await call('GET', '/api/menus');
  const out = new Map<string, string>();
  const walk = (nodes: Array<{ id: string; code: string; children: unknown[] }>) =>
    nodes.forEach((n) => {
      out.set(n.code, n.id);
      walk(n.children as typeof nodes);
    });
  walk(res.json().data);
  return out;
}

export async function roleId(call: Call, code: string): Promise<string> {
  const res = await call('GET', `/api/roles?keyword=${encodeURIComponent(code)}&pageSize=100`);
  const role = (res.json().data.items as Array<{ id: string; code: string }>).find((r) => r.code === code);
  if (!role) throw new Error(`no role ${code}`);
  return role.id;
}

/** Creates a role and grants it `grants` (menu code → bits). */
export async function createRole(call: Call, code: string, grants: Record<string, number> = {}): Promise<string> {
  const res = await call('POST', '/api/roles', { code, name: `角色 ${code}` });
  if (res.statusCode !== 201) throw new Error(`create role ${code}: ${res.statusCode} ${res.body}`);
  const id = res.json().data.id as string;
  await setGrants(call, id, grants);
  return id;
}

export async function setGrants(call: Call, id: string, grants: Record<string, number>): Promise<void> {
  const menus = await menuIds(call);
  const body = { grants: Object.entries(grants).map(([code, bits]) => ({ menuId: menus.get(code), bits })) };
  const res = await call('PUT', `/api/roles/${id}/menus`, body);
  if (res.statusCode !== 200) throw new Error(`grant ${id}: ${res.statusCode} ${res.body}`);
}

export async function createUser(
  call: Call,
  username: string,
  roleIds: string[] = [],
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await call('POST', '/api/users', { username, password: PASSWORD, roleIds, ...extra });
  if (res.statusCode !== 201) throw new Error(`create user ${username}: ${res.statusCode} ${res.body}`);
  // As if the user had already replaced the operator's password (must-change-password.test.ts covers that step):
  // these suites act as the user straight away, and the step's own audit and sessions would disturb what they count.
  await call.app.db.kysely
    .updateTable('users')
    .set({ must_change_password: 0 })
    .where('id', '=', res.json().data.id)
    .execute();
  return res.json().data.id as string;
}

/** Creates a user holding one new role with `grants`, signs them in, and returns a caller for them. */
export async function userWithGrants(app: FastifyInstance, admin: Call, name: string, grants: Record<string, number>) {
  const role = await createRole(admin, `r_${name}`, grants);
  const id = await createUser(admin, name, [role]);
  const { accessToken } = await login(app, name, PASSWORD);
  return { id, role, call: as(app, accessToken), token: accessToken };
}

/** Makes an API key with `body` (name, limits, groups …): its id, its prefix and the secret shown this once. */
export async function createApiKey(
  call: Call,
  body: Record<string, unknown>,
): Promise<{ id: string; prefix: string; secret: string }> {
  const res = await call('POST', '/api/admin/api-keys', body);
  if (res.statusCode !== 201) throw new Error(`create API key ${body.name}: ${res.statusCode} ${res.body}`);
  const { key, secret } = res.json().data as { key: { id: string; prefix: string }; secret: string };
  return { id: key.id, prefix: key.prefix, secret };
}

/**
 * The day's traffic the home pages count, sent over HTTP to the listening app at `base` as callers would: /api/holiday
 * with each of `anonymous` queries without a key and each of `keyed` with a new key named `key`, then `failedSignIns`
 * wrong passwords for a new user `clerk`. Returns the key.
 */
export async function sendTodaysTraffic(
  call: Call,
  base: string,
  t: { anonymous: string[]; key: string; keyed: string[]; clerk: string; failedSignIns: number },
): Promise<{ id: string; prefix: string }> {
  for (const q of t.anonymous) await fetch(`${base}/api/holiday?${q}`);
  const { secret, ...key } = await createApiKey(call, { name: t.key });
  for (const q of t.keyed) await fetch(`${base}/api/holiday?${q}`, { headers: { 'x-api-key': secret } });
  await createUser(call, t.clerk);
  for (let i = 0; i < t.failedSignIns; i++)
    await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: t.clerk, password: `wrong-${i}` }),
    });
  return key;
}

export const FORBIDDEN_BODY = '{"code":"FORBIDDEN","message":"无权限"}';
