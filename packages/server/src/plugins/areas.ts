/**
 * Which face of the service a path belongs to. Both live under /api; the admin API's resources are the first two
 * segments of the routes registered inside it (admin/index.ts calls `registerAdminRoute` for each), so the error
 * renderer, CORS and the 404 handler agree on which body shape a path gets, and a new admin resource needs no list edit.
 */
const ADMIN_PREFIXES = new Set<string>();

export function registerAdminRoute(url: string): void {
  const prefix = /^\/api\/[^/:*]+/.exec(url)?.[0];
  if (prefix) ADMIN_PREFIXES.add(prefix);
}

export type Area = 'admin' | 'lookup' | 'other';

export function areaOfUrl(url: string): Area {
  let p = url.split('?')[0];
  // The router matches the percent-decoded path (/api/%61uth/me reaches /api/auth/me): classify it the same way.
  try {
    p = decodeURIComponent(p);
  } catch {
    // A malformed escape matches no route; classify the raw text.
  }
  const prefix = /^\/api\/[^/]+/.exec(p)?.[0];
  if (prefix && ADMIN_PREFIXES.has(prefix)) return 'admin';
  if (p === '/api' || p.startsWith('/api/')) return 'lookup';
  return 'other';
}
