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

/** Where the service serves pages a browser renders (the admin app, the mobile app, the API reference). */
const PAGE_PREFIXES = ['/admin', '/m', '/docs'];

/** Whether `url` is under one of the page prefixes (`/m`, `/m/users`, `/docs?x`; not `/metrics`). */
export function isPagePath(url: string): boolean {
  for (const prefix of PAGE_PREFIXES) {
    if (!url.startsWith(prefix)) continue;
    const next = url.charCodeAt(prefix.length);
    // End of the path, '/' or '?'.
    if (Number.isNaN(next) || next === 47 || next === 63) return true;
  }
  return false;
}
