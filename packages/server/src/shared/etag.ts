/** If-None-Match per RFC 9110 §13.1.2: `*`, or a comma-separated list of tags compared weakly (a `W/` prefix is ignored). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
