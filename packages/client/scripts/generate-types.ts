/**
 * Generates `src/generated/admin-api.ts` and `src/generated/public-api.ts` from the OpenAPI document the server
 * itself produces (buildApp on an in-memory SQLite database, no network): the `paths` types of every admin route, and
 * each route's `x-permission` so the front end gates a control by the very declaration the server enforces; and the
 * `paths` types of the public lookup API for `createPublicClient`, with its endpoint groups.
 *
 *   npm run generate -w @tianji/client
 *
 * `test/generated-types.test.ts` regenerates in memory and fails when a committed file is stale.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { areaOfUrl } from '../../server/src/http/areas.js';
import { CATALOGUE } from '../../server/src/catalogue/index.js';
import { LOOKUP_GROUPS } from '../../server/src/catalogue/lookup-groups.js';
import { PERMISSION_POINTS, POINT_NAMES } from '../../server/src/admin/permissions/points.js';
import { ERROR_MESSAGES } from '../../server/src/error-messages.js';
import { AUDIT_ACTIONS, AUDIT_TARGETS } from '../../server/src/admin/audit/actions.js';
import { MENU_KIND_NAMES } from '../../server/src/admin/menus/schemas.js';
import { LOGIN_EVENT_NAMES, LOGIN_REASON_NAMES, LOGIN_RESULT_NAMES } from '../../server/src/admin/login-log/names.js';
import { CLIENT_KIND_NAMES, SIGN_IN_METHOD_NAMES } from '../../server/src/admin/sessions/device.js';
import { API_KEY_STATUS_NAMES } from '../../server/src/admin/api-keys/schemas.js';
import { STATUS_NAMES } from '../../server/src/admin/shared/schemas.js';

export const OUTPUT = fileURLToPath(new URL('../src/generated/admin-api.ts', import.meta.url));
export const PUBLIC_OUTPUT = fileURLToPath(new URL('../src/generated/public-api.ts', import.meta.url));

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The live OpenAPI document of a freshly built server. */
export async function liveOpenApiDocument(): Promise<OpenAPI3> {
  const config = loadConfig({
    DATA_DIR: path.join(os.tmpdir(), 'tianji-client-gen'),
    DATABASE_URL: 'sqlite::memory:',
    ADMIN_PASSWORD: randomBytes(12).toString('hex'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ config, logger: false });
  try {
    await app.ready();
    return JSON.parse(JSON.stringify(app.swagger())) as OpenAPI3;
  } finally {
    await app.close();
  }
}

/**
 * Keeps one area's paths only (the admin API for the session client, the public lookup API for the public client),
 * and drops the 4xx/5xx responses every operation repeats: they are all `{code, message}` (admin, read by ApiError)
 * or the `{code, msg}` envelope (public, read by PublicApiError).
 */
export function areaOnly(whole: OpenAPI3, area: 'admin' | 'lookup'): OpenAPI3 {
  // A copy: both files are generated from one document, and openapi-typescript may annotate what it is given.
  const doc = structuredClone(whole);
  const paths: Record<string, unknown> = {};
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    if (areaOfUrl(p.replace(/\{[^}]+\}/g, 'x')) !== area) continue;
    paths[p] = Object.fromEntries(
      Object.entries(item).map(([method, op]) => {
        if (!op || typeof op !== 'object' || !('responses' in op)) return [method, op];
        const responses = Object.fromEntries(
          Object.entries(op.responses as object).filter(([status]) => !/^[45]/.test(status)),
        );
        return [method, { ...op, responses }];
      }),
    );
  }
  return { ...doc, paths: paths as OpenAPI3['paths'], tags: undefined, info: { ...doc.info, description: undefined } };
}

type Permission = 'public' | 'authenticated' | { menu?: string; bits: string[] };

/** `'GET /api/users/{id}'` → the route's permission declaration, as emitted in `x-permission`. */
export function routePermissions(doc: OpenAPI3): Record<string, Permission> {
  const out: Record<string, Permission> = {};
  for (const [p, item] of Object.entries(doc.paths ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    for (const m of METHODS) {
      const op = (item as Record<string, { 'x-permission'?: Permission } | undefined>)[m];
      if (op) out[`${m.toUpperCase()} ${p}`] = op['x-permission'] ?? 'authenticated';
    }
  }
  return out;
}

export const adminOnly = (doc: OpenAPI3) => areaOnly(doc, 'admin');

/**
 * Per built-in menu and point, what its routes do, in the Chinese of their summaries (「解锁用户 Clear a user’s …」 →
 * 「解锁用户」): the grant grid says that 重置 on 用户管理 unlocks a user and on 接口密钥 rotates a key.
 */
export function menuPointActions(doc: OpenAPI3): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  for (const [, item] of Object.entries(doc.paths ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    for (const m of METHODS) {
      const op = (item as Record<string, { 'x-permission'?: Permission; summary?: string } | undefined>)[m];
      const decl = op?.['x-permission'];
      if (typeof decl !== 'object' || !decl.menu || !op?.summary) continue;
      // The Chinese part ends where the English begins: a space, then a capitalised word (not JSON or CSV).
      const action = op.summary.split(/ (?=[A-Z][a-z])/)[0];
      for (const bit of decl.bits) {
        const actions = ((out[decl.menu] ??= {})[bit] ??= []);
        if (!actions.includes(action)) actions.push(action);
      }
    }
  }
  return out;
}

const HEADER = (what: string) => [
  '/**',
  ` * GENERATED by \`npm run generate -w @tianji/client\` from the server’s /openapi.json (${what}).`,
  ' * Do not edit: change the route schemas and regenerate. A test fails when this file is stale.',
  ' */',
  '/* eslint-disable */',
];

export async function generateAdminTypes(doc?: OpenAPI3): Promise<string> {
  return renderAdminTypes(adminOnly(doc ?? (await liveOpenApiDocument())));
}

/** The public lookup API's paths (for createPublicClient), and its endpoint groups (what a key may be limited to). */
export async function generatePublicTypes(doc?: OpenAPI3): Promise<string> {
  const ast = await openapiTS(areaOnly(doc ?? (await liveOpenApiDocument()), 'lookup'), { alphabetize: true });
  return [
    ...HEADER('public lookup routes only'),
    astToString(ast).trimEnd(),
    '',
    '/** The endpoint groups of the public API (the server’s LOOKUP_GROUPS): names and descriptions, Chinese first. */',
    `export const LOOKUP_GROUPS = ${JSON.stringify(LOOKUP_GROUPS, null, 2)} as const;`,
    '',
    'export type LookupGroup = keyof typeof LOOKUP_GROUPS;',
    '',
  ].join('\n');
}

async function renderAdminTypes(doc: OpenAPI3): Promise<string> {
  const ast = await openapiTS(doc, { alphabetize: true });
  const permissions = routePermissions(doc);
  return [
    ...HEADER('admin routes only'),
    astToString(ast).trimEnd(),
    '',
    '/** Each admin route’s permission declaration (`x-permission`), keyed by "METHOD /path". */',
    `export const ROUTE_PERMISSIONS = ${JSON.stringify(permissions, null, 2)} as const;`,
    '',
    'export type RouteKey = keyof typeof ROUTE_PERMISSIONS;',
    '',
    '/** Per built-in menu and point, what its routes do (their summaries, in Chinese): the grant grid shows them. */',
    `export const MENU_POINT_ACTIONS = ${JSON.stringify(menuPointActions(doc), null, 2)} as const;`,
    '',
    '/** The ten permission points (the server’s admin/permissions/points.ts; the same as GET /api/permissions). */',
    `export const PERMISSION_POINTS = ${JSON.stringify(PERMISSION_POINTS, null, 2)} as const;`,
    '',
    '/** The built-in menus (the server’s catalogue/index.ts): code, parent, names, path, icon, sort, API prefix and app page. */',
    `export const MENU_CATALOGUE = ${JSON.stringify(CATALOGUE, null, 2)} as const;`,
    '',
    'export type CatalogueMenu = (typeof MENU_CATALOGUE)[number];',
    '',
    '/** Names of the server’s codes in Chinese and English, as the server owns them (one source for every client). */',
    ...Object.entries({
      'Each permission point’s name (admin/permissions/points.ts).': ['POINT_NAMES', POINT_NAMES],
      'Each error code’s general meaning (error-messages.ts).': ['ERROR_MESSAGES', ERROR_MESSAGES],
      'Each audit action (admin/audit/actions.ts).': ['AUDIT_ACTIONS', AUDIT_ACTIONS],
      'The audit target types of the admin features.': ['AUDIT_TARGETS', AUDIT_TARGETS],
      'Each menu kind (admin/menus/schemas.ts).': ['MENU_KIND_NAMES', MENU_KIND_NAMES],
      'Each login-log event (admin/login-log/names.ts).': ['LOGIN_EVENT_NAMES', LOGIN_EVENT_NAMES],
      'Each login-log reason: failed sign-ins and ended sessions.': ['LOGIN_REASON_NAMES', LOGIN_REASON_NAMES],
      'Each login-log result.': ['LOGIN_RESULT_NAMES', LOGIN_RESULT_NAMES],
      'Each client kind a session records (admin/sessions/device.ts).': ['CLIENT_KIND_NAMES', CLIENT_KIND_NAMES],
      'How a session was opened (admin/sessions/device.ts).': ['SIGN_IN_METHOD_NAMES', SIGN_IN_METHOD_NAMES],
      'Each API key status (admin/api-keys/schemas.ts).': ['API_KEY_STATUS_NAMES', API_KEY_STATUS_NAMES],
      'A user’s or a role’s status (admin/shared/schemas.ts).': ['STATUS_NAMES', STATUS_NAMES],
    }).flatMap(([doc, [name, value]]) => [
      `/** ${doc} */`,
      `export const ${name} = ${JSON.stringify(value, null, 2)} as const;`,
      '',
    ]),
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const doc = await liveOpenApiDocument();
  for (const [file, text] of [
    [OUTPUT, await generateAdminTypes(doc)],
    [PUBLIC_OUTPUT, await generatePublicTypes(doc)],
  ] as const) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    console.log(`wrote ${path.relative(process.cwd(), file)} (${text.length} characters)`);
  }
}
