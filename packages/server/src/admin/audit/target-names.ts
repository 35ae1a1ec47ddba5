import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AuditEntry } from './schemas.js';

type Detail = Record<string, unknown>;
const isObject = (v: unknown): v is Detail => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s !== '') : [];
const joined = (names: string[]) => [...new Set(names)].join('、');

/** An API key as a person recognises it: its name and the prefix of its secret, 「天气小程序（tj_ab12cd34）」. */
const keyName = (k: unknown): string =>
  isObject(k) && typeof k.name === 'string' && typeof k.prefix === 'string' && k.prefix
    ? `${k.name}（${k.prefix}）`
    : '';

/**
 * The name the row recorded for its target when it was written: a username, a name, a code, or those of a batch;
 * an API key's name with its prefix (two keys may share a name, never a prefix).
 */
function recordedName(detail: unknown): string {
  if (!isObject(detail)) return '';
  if (Array.isArray(detail.keys)) return joined(detail.keys.map(keyName).filter(Boolean));
  if (keyName(detail)) return keyName(detail);
  for (const key of ['username', 'name', 'code'])
    if (typeof detail[key] === 'string' && detail[key]) return detail[key] as string;
  // Sessions ended by an operator: whose they were.
  if (Array.isArray(detail.sessions))
    return joined(detail.sessions.flatMap((s) => (isObject(s) && typeof s.username === 'string' ? [s.username] : [])));
  return joined([...strings(detail.usernames), ...strings(detail.codes)]);
}

/** A grant list of a role.set-grants row: `{menu, bits}` items (code and point mask), `name` added where missing. */
function namedGrants(list: unknown, menuName: Map<string, string>): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((g) =>
    isObject(g) && typeof g.menu === 'string' && typeof g.name !== 'string' && menuName.has(g.menu)
      ? { ...g, name: menuName.get(g.menu) }
      : g,
  );
}

/**
 * Gives each row its target's readable name (`targetName`): the user's username, the role's or menu's name as they
 * are now, or, for a record since deleted or a batch, the name(s) the row recorded; whose sessions for ended sessions.
 * Grant changes of rows written before grants recorded menu names get the menu's current name.
 */
export async function withTargetNames(
  db: Kysely<Database>,
  rows: Array<Omit<AuditEntry, 'targetName'>>,
): Promise<AuditEntry[]> {
  const idsOf = (type: string) => [
    ...new Set(rows.filter((r) => r.targetType === type && r.targetId).map((r) => r.targetId!)),
  ];
  const [userIds, roleIds] = [idsOf('user'), idsOf('role')];
  const grantRows = rows.some((r) => r.action === 'role.set-grants');
  const [users, roles, menus] = await Promise.all([
    userIds.length
      ? db.selectFrom('users').select(['id', 'username as name']).where('id', 'in', userIds).execute()
      : [],
    roleIds.length ? db.selectFrom('roles').select(['id', 'name']).where('id', 'in', roleIds).execute() : [],
    // Menus are a short list: read whole when a row needs menu names.
    idsOf('menu').length || grantRows ? db.selectFrom('menus').select(['id', 'code', 'name']).execute() : [],
  ]);
  const live = new Map<string, string>([...users, ...roles, ...menus].map((r) => [r.id, r.name]));
  const menuName = new Map(menus.map((m) => [m.code, m.name]));
  return rows.map((r) => {
    let detail = r.detail;
    if (r.action === 'role.set-grants' && isObject(detail))
      detail = { ...detail, from: namedGrants(detail.from, menuName), to: namedGrants(detail.to, menuName) };
    const targetName = (r.targetId && live.get(r.targetId)) || recordedName(r.detail);
    return { ...r, detail, targetName };
  });
}
