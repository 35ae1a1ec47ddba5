import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { roleNameKey } from './frozen-helpers.js';

/**
 * Role names become unique (issue 26: a second 「超级管理员」 could be made, and a list cannot tell the two apart).
 * The service compares names by roleNameKey (case, width, whitespace folded); the database backs the exact name
 * with a unique index.
 *
 * Roles that already share a name (by that comparison) do not stop the upgrade: the super administrator role keeps
 * its name, then the oldest role (created_at, then id), and each other one is renamed deterministically to
 * 「name（2）」, 「name（3）」 … (the first such name no other role has), cut to fit 64 characters. Each rename is written
 * to the audit log (`role.rename-duplicate`, with the old and the new name).
 */
/** The tables as this migration sees them (later migrations may change them; this file must not follow). */
interface Tables {
  roles: { id: string; code: string; name: string; created_at: string; updated_at: string };
  audit_logs: {
    id: string;
    actor_id: string | null;
    actor_username: string;
    /** One the clients can name (AUDIT_ACTIONS): the row outlives this file. */
    action: string;
    target_type: string;
    target_id: string;
    detail: string;
    ip: string;
    created_at: string;
  };
}

const NAME_MAX = 64;

export async function up(db: Kysely<Tables>): Promise<void> {
  const roles = await db
    .selectFrom('roles')
    .select(['id', 'code', 'name'])
    .orderBy(sql`case when code = 'super_admin' then 0 else 1 end`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const taken = new Set<string>();
  const renames: Array<{ id: string; code: string; from: string; to: string }> = [];
  for (const r of roles) {
    if (!taken.has(roleNameKey(r.name))) {
      taken.add(roleNameKey(r.name));
      continue;
    }
    let to = r.name;
    for (let n = 2; taken.has(roleNameKey(to)); n++) {
      const suffix = `（${n}）`;
      to = [...r.name].slice(0, NAME_MAX - suffix.length).join('') + suffix;
    }
    taken.add(roleNameKey(to));
    renames.push({ id: r.id, code: r.code, from: r.name, to });
  }
  const now = new Date().toISOString();
  for (const r of renames) {
    await db.updateTable('roles').set({ name: r.to, updated_at: now }).where('id', '=', r.id).execute();
    await db
      .insertInto('audit_logs')
      .values({
        id: randomUUID(),
        actor_id: null,
        actor_username: 'migration',
        action: 'role.rename-duplicate',
        target_type: 'role',
        target_id: r.id,
        detail: JSON.stringify({ code: r.code, from: r.from, to: r.to, reason: 'role names are unique' }),
        ip: '',
        created_at: now,
      })
      .execute();
  }
  await db.schema.createIndex('roles_name_idx').on('roles').column('name').unique().execute();
}

export async function down(db: Kysely<Tables>): Promise<void> {
  await sql`drop index if exists roles_name_idx`.execute(db);
}
