import type { FastifyInstance, RouteOptions } from 'fastify';
import auditRecorder from './audit/recorder.js';
import authGuard, { isAllowed } from './auth/guard.js';
import { AuthService } from './auth/service.js';
import authRoutes, { permissionRoutes } from './auth/routes.js';
import usersRoutes from './users/routes.js';
import rolesRoutes from './roles/routes.js';
import menusRoutes from './menus/routes.js';
import auditRoutes from './audit/routes.js';
import profileRoutes from './auth/profile-routes.js';
import passwordCheckRoutes from './auth/password-check.js';
import sessionRoutes, { ownSessionRoutes, sessionEventRoutes } from './sessions/routes.js';
import { SessionsService } from './sessions/service.js';
import { SessionEvents } from './sessions/events.js';
import loginLog from './login-log/plugin.js';
import loginLogRoutes from './login-log/routes.js';
import contentRoutes from '../content/routes.js';
import usageRoutes from '../monitor/routes.js';
import serverStatusRoutes from '../monitor/server-status-routes.js';
import apiKeysRoutes from './api-keys/routes.js';
import { KEY_READERS } from './api-keys/schemas.js';
import { registerAdminRoute } from '../http/areas.js';
import { rejectNulBytes } from '../shared/nul-bytes.js';

/**
 * Every route registered inside the admin API is marked as such (admin error bodies, guard), and its permission
 * declaration is copied into the OpenAPI operation as `x-permission` — the one declaration serves both.
 */
function markAdminRoute(route: RouteOptions) {
  route.config = { ...(route.config as object), area: 'admin' };
  registerAdminRoute(route.url);
  const decl = (route.config as { auth?: unknown }).auth;
  const schema = (route.schema ??= {}) as Record<string, unknown>;
  if (decl !== undefined) schema['x-permission'] = decl;
  if (decl !== 'public') schema.security = [{ bearerAuth: [] }];
  const response = (schema.response ??= {}) as Record<string, unknown>;
  response['4xx'] ??= { $ref: 'AdminError#' };
  response['5xx'] ??= { $ref: 'AdminError#' };
}

/**
 * The admin API. Encapsulated on purpose: the onRoute hook and the guard apply to the routes registered here
 * and to no public route. Admin features add their route plugin to this list.
 */
export default async function adminApi(app: FastifyInstance, opts: { now?: () => number }) {
  app.addHook('onRoute', markAdminRoute);
  app.addHook('preValidation', rejectNulBytes);
  // One AuthService for every admin feature (login, password change, user disable/reset all end sessions through it).
  const auth = new AuthService(app.db.kysely, app.tokens, {
    now: opts.now,
    refreshGraceMs: app.config.refreshReuseGraceMs,
  });
  app.decorate('authService', auth);
  app.decorate('sessions', new SessionsService(app.db.kysely, auth, app.ipLookup.place));
  const events = new SessionEvents(app.log, app.redis);
  await events.start();
  app.decorate('sessionEvents', events);
  app.addHook('onClose', () => events.close());
  auth.onSessionsEnded((ended) => events.publish(ended));
  await app.register(auditRecorder);
  await app.register(loginLog, { now: opts.now });
  await app.register(authGuard);
  await app.register(authRoutes, { prefix: '/api/auth', now: opts.now });
  await app.register(ownSessionRoutes, { prefix: '/api/auth/sessions' });
  await app.register(profileRoutes, { prefix: '/api/auth/profile' });
  await app.register(passwordCheckRoutes, { prefix: '/api/auth' });
  await app.register(sessionEventRoutes, { prefix: '/api/auth' });
  await app.register(permissionRoutes, { prefix: '/api/permissions' });
  await app.register(usersRoutes, { prefix: '/api/users' });
  await app.register(rolesRoutes, { prefix: '/api/roles' });
  await app.register(menusRoutes, { prefix: '/api/menus' });
  await app.register(auditRoutes, { prefix: '/api/audit-logs' });
  await app.register(sessionRoutes, { prefix: '/api' });
  await app.register(loginLogRoutes, { prefix: '/api/login-logs' });
  await app.register(contentRoutes, { prefix: '/api/admin/content' });
  await app.register(usageRoutes, {
    prefix: '/api/admin/usage',
    readsKeys: (req) => req.auth !== undefined && isAllowed(req.auth, KEY_READERS),
  });
  await app.register(apiKeysRoutes, { prefix: '/api/admin/api-keys' });
  await app.register(serverStatusRoutes, { prefix: '/api/admin/server-status' });
}
