/** One changed field of an audited write: its value before and after (undefined: there was none). */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

type Detail = Record<string, unknown>;
const isObject = (v: unknown): v is Detail => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys of a detail that name the target or describe the write rather than a field of the record. */
const META = new Set(['username', 'code', 'changes', 'from', 'to', 'filter', 'count', 'format']);

/**
 * What an audit row changed, field by field, read from the detail the server records: `{changes: {f: {from, to}}}`
 * for updates, `{from, to}` for roles and grants set as a whole, the new record for creations.
 *
 * @example auditChanges('user.update', { username: 'a', changes: { nickname: { from: 'x', to: 'y' } } })
 *   // [{ field: 'nickname', before: 'x', after: 'y' }]
 */
export function auditChanges(action: string, detail: unknown): FieldChange[] {
  if (!isObject(detail)) return [];
  if (isObject(detail.changes))
    return Object.entries(detail.changes).map(([field, c]) =>
      isObject(c) ? { field, before: c.from, after: c.to } : { field, before: undefined, after: c },
    );
  if ('from' in detail || 'to' in detail) {
    const field = action.endsWith('set-grants') ? 'grants' : action.endsWith('set-roles') ? 'roles' : 'value';
    return [{ field, before: detail.from, after: detail.to }];
  }
  if (/\.(create|add-child)$/.test(action))
    return Object.entries(detail)
      .filter(([k]) => k !== 'password')
      .map(([field, after]) => ({ field, before: undefined, after }));
  return [];
}

/** The target's readable name recorded with the row (a username, a role or menu code), or ''. */
export function auditTargetName(detail: unknown): string {
  if (!isObject(detail)) return '';
  for (const key of ['username', 'name', 'code'])
    if (typeof detail[key] === 'string' && detail[key]) return detail[key] as string;
  return '';
}

/** The rest of the detail (counts, filters, ids of a batch): what the diff view does not already show. */
export function auditExtra(detail: unknown): Detail {
  if (!isObject(detail)) return {};
  return Object.fromEntries(Object.entries(detail).filter(([k]) => !META.has(k)));
}

/** A value in a diff cell: strings as they are, nothing as '—', the rest as compact JSON. */
export function showValue(v: unknown): string {
  if (v === undefined || v === null || v === '') return '—';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
