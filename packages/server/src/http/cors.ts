import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { areaOfUrl, isPagePath } from './areas.js';
import { fail } from './envelope.js';
import { routeOf } from './route-of.js';

export interface CorsOptions {
  /** Origins allowed on the admin API (`*` allows any); empty: none. */
  adminOrigins: string[];
  /** Security headers of pages (/admin, /m, /docs): helmet's set (http/security-headers.ts helmetHeaders). */
  pageHeaders: Readonly<Record<string, string>>;
  /** Security headers of every other answer, for a request over plain HTTP and over HTTPS (apiSecurityHeaders). */
  apiHeaders: { http: Readonly<Record<string, string>>; https: Readonly<Record<string, string>> };
}

/** Headers a browser may read from a public answer (rate-limit state, caching). */
const PUBLIC_EXPOSED = 'Retry-After, ETag, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';
const PUBLIC_HEADERS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': PUBLIC_EXPOSED };
const PUBLIC_METHODS = 'GET, HEAD, OPTIONS';
const ADMIN_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';

/**
 * CORS for the two faces of the service: the public API is open to every origin, the admin API only to the
 * configured ones. The rules are the ones @fastify/cors applies (strict preflights answered 204 in the hook, the
 * request's Access-Control-Request-Headers reflected, `Vary: Origin` where the answer depends on the origin), with
 * the two header sets fixed at start-up: the plugin's per-request delegator re-normalised its options and merged
 * objects on every request, a fifth of /healthz's CPU. The same hook sets the security headers (a page's or an API
 * answer's), merged into those sets at start-up: one hook and one header call per request instead of two.
 */
export default fp<CorsOptions>(
  async (app, { adminOrigins, pageHeaders, apiHeaders }) => {
    const anyAdminOrigin = adminOrigins.includes('*');
    const adminOrigin = (origin: string | undefined) =>
      anyAdminOrigin ? '*' : origin !== undefined && adminOrigins.includes(origin) ? origin : undefined;
    const publicPage = { ...pageHeaders, ...PUBLIC_HEADERS };
    const publicHttp = { ...apiHeaders.http, ...PUBLIC_HEADERS };
    const publicHttps = { ...apiHeaders.https, ...PUBLIC_HEADERS };

    app.addHook('onRequest', (req, reply, done) => {
      const method = req.raw.method;
      // A matched route knows its area; preflights (the catch-all OPTIONS route) and unknown paths go by the URL.
      const route = routeOf(req);
      const area = method === 'OPTIONS' || route.url === undefined ? areaOfUrl(req.url) : route.config?.area;
      if (area !== 'admin') {
        // Strict-Transport-Security only where the request came over HTTPS (req.protocol follows TRUST_PROXY).
        reply.headers(
          area !== 'lookup' && isPagePath(req.url) ? publicPage : req.protocol === 'https' ? publicHttps : publicHttp,
        );
        if (method === 'OPTIONS') return preflight(req, reply, PUBLIC_METHODS, 'Access-Control-Request-Headers');
        return done();
      }
      reply.headers(req.protocol === 'https' ? apiHeaders.https : apiHeaders.http);
      if (!adminOrigins.length) return done();
      const origin = adminOrigin(req.headers.origin);
      if (origin) reply.header('access-control-allow-origin', origin);
      const vary = anyAdminOrigin ? undefined : 'Origin';
      if (method === 'OPTIONS')
        return preflight(
          req,
          reply,
          ADMIN_METHODS,
          vary ? `${vary}, Access-Control-Request-Headers` : 'Access-Control-Request-Headers',
        );
      if (vary) reply.header('vary', vary);
      done();
    });

    // Lets the router accept preflights; they are answered in the hook above, any other OPTIONS request is a 404.
    app.options('*', { schema: { hide: true } }, (req, reply) => {
      // The 404 handler's route from here on, not this one (routeOf read it in the hook above).
      req.routeRead = null;
      return reply.callNotFound();
    });
  },
  { name: 'cors' },
);

/**
 * Answers a preflight in the hook, before any guard. A malformed one (no Origin or Access-Control-Request-Method) is a
 * 400, as @fastify/cors's strict mode does, but in the area's body shape like every other error.
 */
function preflight(req: FastifyRequest, reply: FastifyReply, methods: string, vary: string): void {
  reply.header('vary', vary);
  if (!req.headers.origin || !req.headers['access-control-request-method']) {
    const body =
      areaOfUrl(req.url) === 'admin'
        ? {
            code: 'VALIDATION_ERROR',
            message: 'invalid CORS preflight: Origin and Access-Control-Request-Method headers are required',
          }
        : fail(400, '无效的 CORS 预检请求：OPTIONS 需带 Origin 和 Access-Control-Request-Method 请求头');
    reply.code(400).type('application/json; charset=utf-8').send(JSON.stringify(body));
    return;
  }
  reply.header('access-control-allow-methods', methods);
  const requested = req.headers['access-control-request-headers'];
  if (requested !== undefined) reply.header('access-control-allow-headers', requested);
  // Safari waits for a body on a 204 without Content-Length.
  reply.code(204).header('content-length', '0').send();
}
