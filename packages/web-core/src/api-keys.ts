import type { paths } from '@tianji/client';
import type { UsageRowLike } from './usage';

/** Record shapes of the API-key routes, read from the generated OpenAPI types. */
type Json<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

export type ApiKey = Json<'/api/admin/api-keys', 'get'>['data']['items'][number];
export type ApiKeyStatus = ApiKey['status'];
/** One caller of the public API in a period (a key, or everyone without one: `apiKeyId` null). */
export type UsageCaller = Json<'/api/admin/usage/callers', 'get'>['data']['items'][number];
/** What creating or editing a key sends (the same fields; create needs a name). */
export type ApiKeyInput = NonNullable<
  paths['/api/admin/api-keys']['post']['requestBody']
>['content']['application/json'];

/** `tj_ab12cd34…`: how a key is recognised without its secret. */
export const shownPrefix = (k: Pick<ApiKey, 'prefix'>) => `tj_${k.prefix}…`;

/** The Beijing calendar day of an instant, `YYYY-MM-DD` (the day usage is counted by). */
export const shanghaiDay = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);

/** The `from`/`to` of the last `days` Beijing days, today included. */
export const lastDays = (days: number, now = Date.now()) => ({
  from: shanghaiDay(now - (days - 1) * 86400_000),
  to: shanghaiDay(now),
});

/** A key's requests on one day, from its usage rows (GET /api/admin/usage?apiKey=…). */
export const requestsOn = (rows: UsageRowLike[], day: string) =>
  rows.reduce((n, r) => (r.day === day ? n + r.requests : n), 0);

/**
 * How much of a limit is used: `ratio` 0…1 (more past the limit), or null when the key has no limit of its own
 * (it then shares the server's default).
 */
export function limitUse(used: number, limit: number | null): { used: number; limit: number; ratio: number } | null {
  if (!limit) return null;
  return { used, limit, ratio: used / limit };
}

/** Origins or addresses as typed (one a line, or separated by commas or spaces); none = no restriction (null). */
export function parseList(text: string): string[] | null {
  const items = text
    .split(/[\s,，]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? [...new Set(items)] : null;
}

/** The other way: a stored list as the form shows it, one a line. */
export const listText = (items: string[] | null | undefined) => (items ?? []).join('\n');

/**
 * What a key form sends: on creation only the fields given (an absent field is the server's default, null), on an
 * edit only the fields that changed, so an untouched limit or list is never rewritten.
 */
export function keyChanges<T extends Record<string, unknown>>(
  form: T,
  before?: Partial<Record<keyof T, unknown>>,
): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(form) as Array<[keyof T, T[keyof T]]>) {
    if (before ? JSON.stringify(before[k] ?? null) === JSON.stringify(v ?? null) : v == null) continue;
    out[k] = v;
  }
  return out;
}
