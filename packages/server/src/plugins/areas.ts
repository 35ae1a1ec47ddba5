/**
 * Which face of the service a path belongs to. Both live under /api; the admin API's resources are listed here
 * once, so the error renderer, CORS and the 404 handler agree on which body shape a path gets.
 */
const ADMIN_PREFIXES = ['/api/auth', '/api/users', '/api/roles', '/api/menus', '/api/audit-logs', '/api/sessions', '/api/login-logs', '/api/permissions', '/api/admin'];

export type Area = 'admin' | 'lookup' | 'other';

export function areaOfUrl(url: string): Area {
  let p = url.split('?')[0];
  // The router matches the percent-decoded path (/api/%61uth/me reaches /api/auth/me): classify it the same way.
  try {
    p = decodeURIComponent(p);
  } catch {
    // A malformed escape matches no route; classify the raw text.
  }
  if (ADMIN_PREFIXES.some((pre) => p === pre || p.startsWith(`${pre}/`))) return 'admin';
  if (p === '/api' || p.startsWith('/api/')) return 'lookup';
  return 'other';
}
