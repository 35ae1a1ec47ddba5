import type { FastifyRequest } from 'fastify';
import { fieldError } from '../errors.js';

/**
 * Where the first NUL character (U+0000) sits in a parsed input, as a dotted path (`grants.0.menuId`), or undefined.
 * Object keys count too. `base` names the whole value when it is itself a string.
 */
export function findNul(value: unknown, base = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? base : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const at = base ? `${base}.${k}` : k;
    if (k.includes('\0')) return at;
    const found = findNul(v, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

export const nulError = (field: string) =>
  fieldError(field, '不能包含 NUL 字符（\\u0000） · must not contain NUL characters');

/**
 * One check for every admin route, before schema validation and before any handler: PostgreSQL refuses NUL in
 * text (a 500 with a stack trace in the log, reachable unauthenticated through /api/auth/login), and SQLite stores a
 * string that compares and displays differently. So a NUL anywhere in the body, query or path parameters is a 400
 * naming the field, on both databases alike.
 */
export async function rejectNulBytes(req: FastifyRequest): Promise<void> {
  for (const [source, value] of [
    ['body', req.body],
    ['querystring', req.query],
    ['params', req.params],
  ] as const) {
    const field = findNul(value);
    if (field !== undefined) throw nulError(field || source);
  }
}
