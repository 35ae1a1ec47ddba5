import type { FastifyRequest } from 'fastify';
import { fieldError } from '../errors.js';

/** Deepest nesting of objects and arrays any input may have: admin bodies and content items use a handful of levels. */
export const MAX_DEPTH = 32;

const tooDeep = (field: string) =>
  fieldError(field, `嵌套不能超过 ${MAX_DEPTH} 层（JSON 对象与数组） · must not nest deeper than ${MAX_DEPTH} levels`);

/**
 * Where the first NUL character (U+0000) sits in a parsed input, as a dotted path (`grants.0.menuId`), or undefined.
 * Object keys count too. `base` names the whole value when it is itself a string. Walks with its own stack, not by
 * recursion, and refuses input nested deeper than MAX_DEPTH (400 naming `base`): 5,000 levels fit in 10 KB of JSON
 * and overflowed the call stack, a 500 reachable before sign-in.
 */
export function findNul(value: unknown, base = ''): string | undefined {
  // Depth-first, children pushed in reverse, so the first NUL in document order is found first.
  const stack: Array<{ value: unknown; at: string; depth: number }> = [{ value, at: base, depth: 0 }];
  while (stack.length) {
    const { value: v, at, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\0')) return at;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_DEPTH) throw tooDeep(base || 'body');
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, child] = entries[i];
      const path = at ? `${at}.${k}` : k;
      // A key is checked when its entry comes up, before its value: a key holding NUL is named itself.
      stack.push({ value: child, at: path, depth: depth + 1 }, { value: k, at: path, depth: depth + 1 });
    }
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
