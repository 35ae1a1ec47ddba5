import type { FastifyInstance, FastifyRequest } from 'fastify';

type RouteOptions = FastifyRequest['routeOptions'];

declare module 'fastify' {
  interface FastifyRequest {
    /** Fastify's routeOptions as first read for this request (routeOf); null until then. */
    routeRead: RouteOptions | null;
  }
}

/**
 * The matched route's options (url, config…), read once per request. Fastify builds a new routeOptions object of a
 * dozen fields on every read; CORS and security headers, the guard, the error handler and the metrics each need it.
 */
export function routeOf(req: FastifyRequest): RouteOptions {
  return (req.routeRead ??= req.routeOptions);
}

/** Declares the request field routeOf fills, so that every request object has it from the start (one shape). */
export function declareRouteOf(app: FastifyInstance): void {
  app.decorateRequest('routeRead', null);
}
