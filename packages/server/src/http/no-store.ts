/**
 * Admin API answers carry tokens and personal data: no browser, proxy or CDN may keep them. Every admin answer has
 * it, success or error, from the first hook on (so a 401 from the guard has it too): it is in the API answers' fixed
 * headers (http/security-headers.ts API_SECURITY_HEADERS), which http/cors.ts sets first on every request; the
 * 404 handler, the router's own errors and the HTTP parser's (http/client-errors.ts) set it for admin paths as well.
 */
export const NO_STORE = 'no-store';
