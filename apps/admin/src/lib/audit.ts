/** One changed field of an audited write: its value before and after (undefined: there was none). */
export interface FieldChange {
  field: string;
  /** What the row shows instead of the field's label: a grant change's menu. */
  label?: string;
  before: unknown;
  after: unknown;
}

/** How a grant change reads: a menu by its name, a point mask by the points' names (both in the interface language). */
export interface GrantNames {
  menu: (g: { menu: string; name?: string }) => string;
  points: (bits: number) => string;
}

type Grant = { menu: string; name?: string; bits: number };
const grantsIn = (v: unknown): Grant[] =>
  Array.isArray(v)
    ? v.filter((g): g is Grant => isObject(g) && typeof g.menu === 'string' && typeof g.bits === 'number')
    : [];

/**
 * A role's grant change menu by menu, only the menus whose points changed: 「古诗词：查询 → 查询、新增、编辑」.
 * A menu granted nothing before or after shows '' there.
 */
export function grantChanges(detail: unknown, names: GrantNames): FieldChange[] {
  if (!isObject(detail)) return [];
  const before = new Map(grantsIn(detail.from).map((g) => [g.menu, g]));
  const after = new Map(grantsIn(detail.to).map((g) => [g.menu, g]));
  const menus = [...new Set([...after.keys(), ...before.keys()])];
  return menus.flatMap((menu) => {
    const [b, a] = [before.get(menu), after.get(menu)];
    if ((b?.bits ?? 0) === (a?.bits ?? 0)) return [];
    return [
      {
        field: 'grants',
        label: names.menu((a ?? b)!),
        before: names.points(b?.bits ?? 0),
        after: names.points(a?.bits ?? 0),
      },
    ];
  });
}

type Detail = Record<string, unknown>;
const isObject = (v: unknown): v is Detail => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys of a detail that name the target or describe the write rather than a field of the record. */
const META = new Set(['username', 'code', 'changes', 'from', 'to', 'filter', 'count', 'format']);

/**
 * What an audit row changed, field by field, read from the detail the server records: `{changes: {f: {from, to}}}`
 * for updates, `{from, to}` for roles set as a whole, grants menu by menu (grantChanges), the new record for creations.
 *
 * @example auditChanges('user.update', { username: 'a', changes: { nickname: { from: 'x', to: 'y' } } })
 *   // [{ field: 'nickname', before: 'x', after: 'y' }]
 */
export function auditChanges(action: string, detail: unknown, names?: GrantNames): FieldChange[] {
  if (!isObject(detail)) return [];
  if (action === 'role.set-grants' && names) return grantChanges(detail, names);
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
