import { createHash } from 'node:crypto';

/** A strong ETag for `body`: 22 characters of its SHA-1 in base64url, quoted. */
export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

/** If-None-Match per RFC 9110 §13.1.2: `*`, or a comma-separated list of tags compared weakly (a `W/` prefix is ignored). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
