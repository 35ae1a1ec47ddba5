import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * One counter that every change to roles, user_roles, role_menus or menus increments, from inside the database.
 * The auth guard reads it with the user's row on every request and reuses its cached roles, grants and menus only
 * while the counter is unchanged, so a change applies from the very next request — whoever made it (an admin
 * route, the CLI, another instance, a hand-written UPDATE).
 */
const TABLES = ['roles', 'user_roles', 'role_menus', 'menus'] as const;

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('access_revision')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('rev', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into access_revision (id, rev) values (1, 0)`.execute(db);

  // The one place the dialects differ: trigger syntax.
  if (isPostgres(db)) {
    // SET search_path FROM CURRENT: the function finds its table whatever search_path the writing session has.
    await sql`create function bump_access_revision() returns trigger language plpgsql set search_path from current as $$
      begin update access_revision set rev = rev + 1 where id = 1; return null; end $$`.execute(db);
    for (const t of TABLES) {
      // BEFORE, per statement: a writer takes the counter's row lock before any row of the table, so two admin
      // transactions always lock in the same order (no deadlock between them), and a batch bumps once.
      await sql`create trigger ${sql.id(`${t}_access_revision`)} before insert or update or delete or truncate on ${sql.table(t)}
        for each statement execute function bump_access_revision()`.execute(db);
    }
  } else {
    for (const t of TABLES) {
      for (const event of ['insert', 'update', 'delete']) {
        await sql`create trigger ${sql.id(`${t}_${event}_access_revision`)} after ${sql.raw(event)} on ${sql.table(t)}
          begin update access_revision set rev = rev + 1 where id = 1; end`.execute(db);
      }
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    for (const t of TABLES)
      await sql`drop trigger if exists ${sql.id(`${t}_access_revision`)} on ${sql.table(t)}`.execute(db);
    await sql`drop function if exists bump_access_revision()`.execute(db);
  } else {
    for (const t of TABLES) {
      for (const event of ['insert', 'update', 'delete'])
        await sql`drop trigger if exists ${sql.id(`${t}_${event}_access_revision`)}`.execute(db);
    }
  }
  await db.schema.dropTable('access_revision').ifExists().execute();
}
