/** menus tree */
import { ALL_ONES, pointsIn, toMask, type components } from '@tianji/client';
import type { Command } from 'commander';
import { action, unwrap, type Context } from '../context.js';
import { CliError, EXIT } from '../output.js';

type MenuTreeNode = components['schemas']['MenuTreeNode'];

function* walk(nodes: MenuTreeNode[], depth = 0): Generator<[MenuTreeNode, number]> {
  for (const n of nodes) {
    yield [n, depth];
    yield* walk(n.children ?? [], depth + 1);
  }
}

export async function findMenu(ctx: Context, code: string): Promise<MenuTreeNode> {
  const tree = await unwrap(ctx.session.api.GET('/api/menus'));
  for (const [n] of walk(tree)) if (n.code === code || n.id === code) return n;
  throw new CliError(EXIT.SERVER, `没有这个菜单：${code}（no such menu）`);
}

export function register(program: Command): void {
  program
    .command('menus')
    .description('菜单（menus）')
    .command('tree')
    .description('整棵菜单树，以及你在每个菜单上的权限位')
    .action(
      action(async (ctx) => {
        const [tree, me] = await Promise.all([unwrap(ctx.session.api.GET('/api/menus')), ctx.session.me()]);
        const lines = [...walk(tree)].map(([n, depth]) => {
          const mine = ctx.session.can(n.code) ? describeBits(findMine(me.menus, n.code) ?? 0) : '不可见';
          return `${'  '.repeat(depth)}${n.name}  ${n.code}  ${n.path}  [${mine}]`;
        });
        return { json: tree, text: lines.join('\n') };
      }),
    );
}

function findMine(nodes: components['schemas']['MenuNode'][], code: string): number | undefined {
  for (const n of nodes) {
    if (n.code === code) return n.permissions;
    const hit = findMine(n.children ?? [], code);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** `SEARCH,EDIT`, `全部` for all-ones, `仅可见` for a grant with bits 0. */
export function describeBits(mask: number | bigint): string {
  if (toMask(mask) === ALL_ONES) return '全部';
  return pointsIn(mask).join(',') || '仅可见';
}
