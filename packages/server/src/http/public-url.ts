import type { FastifyRequest } from 'fastify';

/** host[:port] as a client may legitimately send it: a DNS name, an IPv4 address or a bracketed IPv6 address. */
const HOST = /^(?:([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)|\[([0-9a-f:.]+)\])(?::(\d{1,5}))?$/i;

/**
 * Absolute base URL for links this service hands out (images, avatars): PUBLIC_BASE_URL when configured. Otherwise
 * the request's host (which honours X-Forwarded-Host only when TRUST_PROXY is set) — but only when it is one of
 * TRUSTED_HOSTS: the Host header is the client's to choose, and a link built from an arbitrary one points people
 * (and any cache that stores the answer) at someone else's server. Any other host gets '' — links relative to the
 * site root, which resolve against whatever address the client really used.
 */
export function publicBaseUrl(req: FastifyRequest): string {
  const { publicBaseUrl: configured, trustedHosts } = req.server.config;
  if (configured) return configured;
  const m = HOST.exec(req.host);
  const name = (m?.[1] ?? m?.[2] ?? '').toLowerCase();
  if (!m || !trustedHosts.includes(name)) return '';
  return `${req.protocol}://${req.host.toLowerCase()}`;
}
