import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NO_STORE } from './no-store.js';

/**
 * helmet's security headers, computed once at start-up; http/cors.ts sets them on every page (/admin, /m, /docs)
 * with its own fixed headers, in one hook. The header values still come from helmet (the library made for the job);
 * running its middleware chain on every request cost about a third of a simple route's CPU, and with no per-request
 * options (no CSP nonces) its output never changes.
 */
export function helmetHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let done = false;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => (done = true));
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

/**
 * What every non-HTML answer (JSON, images, redirects, /healthz) carries instead of helmet's page set: the OWASP REST
 * Security Cheat Sheet's headers (issue 31, decision b). Helmet's others (X-DNS-Prefetch-Control, Origin-Agent-Cluster,
 * the cross-origin policies, a CSP for scripts and styles…) only matter to a document a browser renders. Cache-Control
 * is a default: a route that may be cached sets its own. Strict-Transport-Security is added only to an answer to a
 * request that came over HTTPS (directly or per TRUST_PROXY): see apiSecurityHeaders.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': NO_STORE,
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
});

/** The API set for a plain-HTTP request and for an HTTPS one (with helmet's Strict-Transport-Security value). */
export function apiSecurityHeaders(pageHeaders: Readonly<Record<string, string>>) {
  const hsts = pageHeaders['strict-transport-security'];
  if (!hsts) throw new Error('helmet set no Strict-Transport-Security header');
  return { http: API_SECURITY_HEADERS, https: { ...API_SECURITY_HEADERS, 'strict-transport-security': hsts } };
}
