import type { FastifyRequest } from 'fastify';

/**
 * Absolute base URL for links this service hands out (images, avatars): PUBLIC_BASE_URL when configured, else
 * taken from the request (which honours X-Forwarded-* only when TRUST_PROXY is set).
 */
export function publicBaseUrl(req: FastifyRequest): string {
  return req.server.config.publicBaseUrl ?? `${req.protocol}://${req.host}`;
}
