/** menus tree */
import { ALL_ONES, pointsIn, toMask, type components } from '@tianji/client';
import type { Command } from 'commander';
import { action, unwrap, type Context } from '../context.js';
import { CliError, EXIT } from '../output.js';

type MenuTreeNode = components['schemas']['MenuTreeNode'];

function* walk<N extends { children?: N[] }>(nodes: N[], depth = 0): Generator<[N, number]> {
  for (const n of nodes) {
    yield [n, depth];
    yield* walk(n.children ?? [], depth + 1);
  }
}

export async function findMenu(ctx: Context, code: string): Promise<MenuTreeNode> {
  const tree = await unwrap(ctx.session.api.GET('/api/menus'));
  for (const [n] of walk(tree)) if (n.code === code || n.id === code) return n;
  throw new CliError(EXIT.NOT_FOUND, `没有这个菜单：${code}（no such menu）`);
}

export function register(program: Command): void {
  program
    .command('menus')
    .description('菜单（menus）')
    .command('tree')
    .description('你能看到的菜单树，以及你在每个菜单上的权限位；--all 为整棵菜单树（需要菜单管理权限）')
    .option('--all', '整棵菜单树')
    .action(
      action(async (ctx, opts: { all?: boolean }) => {
        if (opts.all) {
          const tree = await unwrap(ctx.session.api.GET('/api/menus'));
          return {
            json: tree,
            text: [...walk(tree)]
              .map(([n, depth]) => `${'  '.repeat(depth)}${n.name}  ${n.code}  ${n.path}`)
              .join('\n'),
          };
        }
        const me = await ctx.session.me();
        const lines = [...walk(me.menus)].map(
          ([n, depth]) => `${'  '.repeat(depth)}${n.name}  ${n.code}  ${n.path}  [${describeBits(n.permissions)}]`,
        );
        return { json: me.menus, text: lines.join('\n') || '（没有可见的菜单）' };
      }),
    );
}

/** `SEARCH,EDIT`, `全部` for all-ones, `仅可见` for a grant with bits 0. */
export function describeBits(mask: number | bigint): string {
  if (toMask(mask) === ALL_ONES) return '全部';
  return pointsIn(mask).join(',') || '仅可见';
}
