import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

/** CSP source expressions ('sha256-…') for the inline scripts of an HTML page, in page order. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`,
  );
}

/**
 * The Content-Security-Policy allows no inline script ('unsafe-inline' is off: the admin app keeps its refresh token
 * in localStorage, readable by any script on the origin). A page that does need one — Scalar's /docs starts itself
 * with a small inline script — gets that exact script allowed by its hash, added here to the header already set.
 * Registered only around such pages (an onSend hook costs every request it is on). Hashes are kept per page text.
 */
export function allowInlineScriptsByHash() {
  const cache = new Map<string, string>();
  return async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const csp = reply.getHeader('content-security-policy');
    if (
      typeof payload !== 'string' ||
      typeof csp !== 'string' ||
      !String(reply.getHeader('content-type')).startsWith('text/html')
    )
      return payload;
    let hashes = cache.get(payload);
    if (hashes === undefined) {
      hashes = inlineScriptHashes(payload).join(' ');
      if (cache.size > 50) cache.clear();
      cache.set(payload, hashes);
    }
    if (hashes) reply.header('content-security-policy', csp.replace(/script-src ([^;]*)/, `script-src $1 ${hashes}`));
    return payload;
  };
}
