import { transact } from '../../db/transaction.js';
import { assembleTree } from '../shared/tree.js';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/index.js';
import { conflict, invalidParamMessage, notFound } from '../../errors.js';
import { nowIso } from '../auth/service.js';
import { SUPER_MASK } from '../permissions/mask.js';
import { MENU_TREE, type MenuSeed } from '../seed.js';
import { superRoleId } from '../super-admin.js';
import { EscalationGuard } from '../escalation.js';
import { changesOf, type Actor } from '../shared/actor.js';
import { isUniqueViolation } from '../shared/query.js';
import { fieldError } from '../shared/schemas.js';
import { descendantsOf, menusRepository as repo, type MenuRow } from './repository.js';
import type { CreateMenuInput, MenuKind, MenuTreeNode, UpdateMenuInput } from './schemas.js';
import { targetProblem } from './target.js';

/** Codes of the menus the service ships (seed.ts): route permissions name them, so they keep their code and stay. */
const flatten = (nodes: MenuSeed[]): string[] => nodes.flatMap((n) => [n.code, ...flatten(n.children ?? [])]);
export const builtInMenuCodes = (): Set<string> => new Set(flatten(MENU_TREE));

const taken = (code: string) => conflict(invalidParamMessage('code', '菜单编码已被使用，请换一个', code));

/** Builds the tree from flat rows; siblings ordered by sort, then code. `rootId` returns that node's subtree only. */
export function buildTree(rows: MenuRow[], rootId?: string): MenuTreeNode[] {
  const builtIn = builtInMenuCodes();
  const nodes = new Map<string, MenuTreeNode>();
  for (const m of rows) {
    nodes.set(m.id, {
      id: m.id,
      parentId: m.parent_id,
      code: m.code,
      name: m.name,
      path: m.path,
      icon: m.icon,
      sort: Number(m.sort),
      kind: m.kind as MenuKind,
      target: m.target,
      builtIn: builtIn.has(m.code),
      createdAt: m.created_at,
      updatedAt: m.updated_at,
      children: [],
    });
  }
  return assembleTree(nodes, rootId);
}

/** Menu tree administration. Every new menu is granted to the super administrator role with the all-ones mask. */
export class MenusService {
  /** `embedOrigins`: the origins an embedded-page menu may show (config MENU_EMBED_ORIGINS). */
  constructor(
    private readonly db: Db,
    private readonly embedOrigins: readonly string[] = [],
  ) {}

  /** 400 naming `target` when it does not fit the menu's kind (see target.ts). */
  private checkTarget(kind: MenuKind, target: string): void {
    const problem = targetProblem(kind, target, this.embedOrigins);
    if (problem) throw fieldError('target', problem);
  }

  private get k() {
    return this.db.kysely;
  }

  async tree(): Promise<MenuTreeNode[]> {
    return buildTree(await repo.all(this.k));
  }

  async get(id: string, db = this.k): Promise<MenuTreeNode> {
    const [node] = buildTree(await repo.all(db), id);
    if (!node) throw notFound('menu');
    return node;
  }

  /** A root menu (parentId null) or a child of `parentId` (404 when that menu does not exist). */
  async create(actor: Actor, parentId: string | null, input: CreateMenuInput): Promise<MenuTreeNode> {
    const kind = input.kind ?? 'page';
    const target = input.target ?? '';
    this.checkTarget(kind, target);
    try {
      return await transact(this.k, async (trx) => {
        if (parentId && !(await repo.findForUpdate(trx, parentId, this.db.dialect))) throw notFound('parent menu');
        if (await repo.codeTaken(trx, input.code)) throw taken(input.code);
        const now = nowIso();
        const row: MenuRow = {
          id: randomUUID(),
          parent_id: parentId,
          code: input.code,
          name: input.name,
          path: input.path ?? '',
          icon: input.icon ?? '',
          sort: input.sort ?? 0,
          kind,
          target,
          created_at: now,
          updated_at: now,
        };
        await trx.insertInto('menus').values(row).execute();
        await trx
          .insertInto('role_menus')
          .values({ role_id: await superRoleId(trx), menu_id: row.id, bits: SUPER_MASK })
          .execute();
        await actor.audit(
          parentId ? 'menu.add-child' : 'menu.create',
          'menu',
          row.id,
          { code: row.code, name: row.name, parentId, kind, ...(target && { target }) },
          trx,
        );
        return this.get(row.id, trx);
      });
    } catch (e) {
      throw isUniqueViolation(e) ? taken(input.code) : e;
    }
  }

  async update(actor: Actor, id: string, patch: UpdateMenuInput): Promise<MenuTreeNode> {
    try {
      return await transact(this.k, async (trx) => {
        const moving = patch.parentId !== undefined;
        const rows = moving ? await repo.allForUpdate(trx, this.db.dialect) : [];
        const before = moving ? rows.find((r) => r.id === id) : await repo.findForUpdate(trx, id, this.db.dialect);
        if (!before) throw notFound('menu');
        if (patch.kind !== undefined || patch.target !== undefined) {
          if (builtInMenuCodes().has(before.code) && patch.kind !== undefined && patch.kind !== before.kind)
            throw conflict(
              `内置菜单「${before.name}」不能改变类型：管理端按编码显示它 (menu "${before.code}" is built in: its kind cannot change)`,
            );
          this.checkTarget(patch.kind ?? (before.kind as MenuKind), patch.target ?? before.target);
        }
        if (patch.code !== undefined && patch.code !== before.code) {
          if (builtInMenuCodes().has(before.code))
            throw conflict(
              `内置菜单「${before.name}」不能修改编码：接口权限引用它 (menu "${before.code}" is built in: its code cannot change)`,
            );
          if (await repo.codeTaken(trx, patch.code, id)) throw taken(patch.code);
        }
        if (moving && patch.parentId !== null) {
          if (!rows.some((r) => r.id === patch.parentId)) throw fieldError('parentId', '菜单不存在', patch.parentId);
          if (patch.parentId === id || descendantsOf(rows, id).includes(patch.parentId!)) {
            throw fieldError('parentId', '不能把菜单移到它自己或它的子菜单下面', patch.parentId);
          }
        }
        const { parentId, ...rest } = patch;
        const set = { ...rest, ...(moving ? { parent_id: parentId } : {}) };
        const changes = changesOf(before, set);
        if (Object.keys(changes).length === 0) return this.get(id, trx);
        await trx
          .updateTable('menus')
          .set({ ...set, updated_at: nowIso() })
          .where('id', '=', id)
          .execute();
        await actor.audit('menu.update', 'menu', id, { code: before.code, changes }, trx);
        return this.get(id, trx);
      });
    } catch (e) {
      throw isUniqueViolation(e) ? taken(patch.code ?? '') : e;
    }
  }

  /**
   * Deletes a menu (and, with `cascade`, its descendants) together with every grant on them. Below super
   * administrators, only when the actor holds every bit any role is granted on them (403 PRIVILEGE_ESCALATION).
   */
  async delete(actor: Actor, id: string, cascade: boolean): Promise<void> {
    await transact(this.k, async (trx) => {
      const rows = await repo.allForUpdate(trx, this.db.dialect);
      const target = rows.find((r) => r.id === id);
      if (!target) throw notFound('menu');
      const descendants = descendantsOf(rows, id);
      if (descendants.length && !cascade) {
        throw conflict(
          `菜单「${target.name}」下还有 ${descendants.length} 个子菜单：请先删除它们，或选择连同子菜单一起删除 (cascade=true)`,
        );
      }
      const doomed = rows.filter((r) => r.id === id || descendants.includes(r.id));
      const builtIn = builtInMenuCodes();
      const kept = doomed.find((r) => builtIn.has(r.code));
      if (kept) throw conflict(`内置菜单「${kept.name}」不能删除 (menu "${kept.code}" is built in)`);
      // Deleting takes every grant on these menus away from the roles that have them: only what the actor covers.
      await (await EscalationGuard.of(trx, actor)).assertMayRemoveGrantsOn(
        doomed.map((r) => r.id),
        doomed.length > 1 ? '删除这些菜单' : '删除该菜单',
      );
      await repo.deleteMany(
        trx,
        doomed.map((r) => r.id),
      );
      const deleted = [
        target.code,
        ...doomed
          .filter((r) => r.id !== id)
          .map((r) => r.code)
          .sort(),
      ];
      await actor.audit('menu.delete', 'menu', id, { code: target.code, cascade, deleted }, trx);
    });
  }
}
