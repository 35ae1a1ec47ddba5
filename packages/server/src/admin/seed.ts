import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { hashPassword } from './auth/service.js';
import { passwordPolicyProblem, type PasswordPolicy } from './auth/password-policy.js';
import { SUPER_ADMIN_ROLE } from './auth/access.js';
import { SUPER_MASK } from './permissions/mask.js';
import { CATALOGUE, type CatalogueMenu } from '../catalogue/index.js';
import { usernameKey } from './shared/username-key.js';

export interface MenuSeed {
  code: string;
  name: string;
  path: string;
  icon: string;
  sort: number;
  kind: 'directory' | 'page';
  children?: MenuSeed[];
}

/**
 * The built-in menu tree, from the catalogue. `ensureMenus` inserts the missing ones at every start (so an upgrade
 * brings new menus to an existing database) and grants them to the super administrator role.
 */
export const MENU_TREE: MenuSeed[] = treeOf(CATALOGUE, null);

function treeOf(menus: readonly CatalogueMenu[], parent: string | null): MenuSeed[] {
  return menus
    .filter((m) => m.parent === parent)
    .map(({ code, name, path, icon, sort, page }) => {
      const children = treeOf(menus, code);
      const kind = page ? ('page' as const) : ('directory' as const);
      return { code, name, path, icon, sort, kind, ...(children.length && { children }) };
    });
}

const now = () => new Date().toISOString();

export async function ensureMenus(db: Kysely<Database>, tree: MenuSeed[] = MENU_TREE): Promise<void> {
  const superRole = await db.selectFrom('roles').select('id').where('code', '=', SUPER_ADMIN_ROLE).executeTakeFirst();
  const walk = async (nodes: MenuSeed[], parentId: string | null) => {
    for (const n of nodes) {
      let row = await db.selectFrom('menus').select('id').where('code', '=', n.code).executeTakeFirst();
      if (!row) {
        row = { id: randomUUID() };
        await db
          .insertInto('menus')
          .values({
            id: row.id,
            parent_id: parentId,
            code: n.code,
            name: n.name,
            path: n.path,
            icon: n.icon,
            sort: n.sort,
            kind: n.kind,
            target: '',
            created_at: now(),
            updated_at: now(),
          })
          .execute();
        if (superRole)
          await db
            .insertInto('role_menus')
            .values({ role_id: superRole.id, menu_id: row.id, bits: SUPER_MASK })
            .execute();
      }
      if (n.children) await walk(n.children, row.id);
    }
  };
  await walk(tree, null);
}

/**
 * On an empty database: the super administrator role, the menu tree, and the first super administrator.
 * Returns the generated password when none was configured, so the caller can print it once; and, when the configured
 * ADMIN_PASSWORD falls short of `passwordPolicy`, why (`weakPassword`): that account must change it at first sign-in,
 * as any password chosen below the policy must.
 */
export async function seedDatabase(
  db: Kysely<Database>,
  opts: { adminUsername: string; adminPassword?: string; passwordPolicy?: PasswordPolicy },
): Promise<{ generatedPassword?: string; weakPassword?: string }> {
  const existing = await db.selectFrom('roles').select('id').where('code', '=', SUPER_ADMIN_ROLE).executeTakeFirst();
  let generatedPassword: string | undefined;
  let weakPassword: string | undefined;
  if (!existing) {
    const roleId = randomUUID();
    await db
      .insertInto('roles')
      .values({
        id: roleId,
        code: SUPER_ADMIN_ROLE,
        name: '超级管理员',
        description: '内置角色：拥有所有菜单的全部权限',
        status: 'enabled',
        sort: 0,
        require_totp: 0,
        created_at: now(),
        updated_at: now(),
      })
      .execute();
    const users = await db.selectFrom('users').select('id').limit(1).execute();
    if (users.length === 0) {
      const password = opts.adminPassword ?? (generatedPassword = randomBytes(12).toString('base64url'));
      weakPassword =
        opts.adminPassword !== undefined && opts.passwordPolicy
          ? await passwordPolicyProblem(opts.adminPassword, opts.passwordPolicy)
          : undefined;
      const userId = randomUUID();
      await db
        .insertInto('users')
        .values({
          id: userId,
          username: opts.adminUsername,
          username_key: usernameKey(opts.adminUsername),
          nickname: '超级管理员',
          password_hash: await hashPassword(password),
          status: 'enabled',
          token_version: 0,
          // A generated password was printed to a log, a weak one was configured: its user must replace it before
          // doing anything else.
          must_change_password: generatedPassword || weakPassword ? 1 : 0,
          created_at: now(),
          updated_at: now(),
        })
        .execute();
      await db.insertInto('user_roles').values({ user_id: userId, role_id: roleId }).execute();
    }
  }
  await ensureMenus(db);
  return { generatedPassword, weakPassword };
}
