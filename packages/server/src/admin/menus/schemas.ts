import { Type, type Static } from '@sinclair/typebox';
import { MENUS } from '../../catalogue/index.js';
import { Timestamp } from '../shared/schemas.js';
import { literalUnion } from '../../shared/literal-union.js';

const MenuCode = Type.String({
  pattern: '^[a-z][a-z0-9_:.-]{1,63}$',
  'x-hint': '2 至 64 个字符：小写字母开头，只含小写字母、数字、_ : . -',
  examples: ['reports:daily'],
});
const MenuName = Type.String({ minLength: 1, maxLength: 64, examples: ['诗词库'] });
const MenuPath = Type.String({ maxLength: 255, examples: ['/content/poems'] });
const MenuIcon = Type.String({ maxLength: 64, description: 'A lucide icon name', examples: ['book-open'] });
const Sort = Type.Integer({ minimum: 0, maximum: 100000, description: 'Ascending order among siblings' });

/** What a menu opens. Built-in menus are directories or pages; operators add any kind. */
export const MENU_KINDS = ['directory', 'page', 'link', 'embed'] as const;
export type MenuKind = (typeof MENU_KINDS)[number];
/** Each kind's name, as clients show it (generated into `@tianji/client`). */
export const MENU_KIND_NAMES: Record<MenuKind, { zh: string; en: string }> = {
  directory: { zh: '目录', en: 'Directory' },
  page: { zh: '内置页面', en: 'Built-in page' },
  link: { zh: '外部链接', en: 'External link' },
  embed: { zh: '嵌入页面', en: 'Embedded page' },
};
export const MenuKindSchema = literalUnion(MENU_KINDS, {
  description:
    "directory: groups other menus; page: shows a built-in page of the admin app (target = that page's menu code); " +
    'link: opens target (an http(s) URL) in a new tab; embed: shows target inside the admin app (an http(s) URL whose ' +
    'origin is listed in MENU_EMBED_ORIGINS)',
  'x-hint': 'directory、page、link、embed 之一',
});
const MenuTarget = Type.String({
  maxLength: 2048,
  description: `page: a built-in menu's code (${MENUS.users.code}); link and embed: an http(s) URL; directory: empty`,
  examples: [MENUS.users.code, 'https://grafana.example.com/d/abc'],
});

export interface MenuTreeNode {
  id: string;
  parentId: string | null;
  code: string;
  name: string;
  path: string;
  icon: string;
  sort: number;
  kind: MenuKind;
  target: string;
  builtIn: boolean;
  createdAt: string;
  updatedAt: string;
  children: MenuTreeNode[];
}

/** A node of the management tree (unlike /api/auth/me's tree, it carries no permissions: it is every menu). */
export const MenuTreeNodeSchema = Type.Recursive(
  (Self) =>
    Type.Object({
      id: Type.String(),
      parentId: Type.Union([Type.String(), Type.Null()]),
      code: Type.String(),
      name: Type.String(),
      path: Type.String(),
      icon: Type.String(),
      sort: Type.Integer(),
      kind: MenuKindSchema,
      target: Type.String(),
      builtIn: Type.Boolean({
        description:
          'Shipped with the service: cannot be deleted, and its code cannot change (route permissions refer to it)',
      }),
      createdAt: Timestamp,
      updatedAt: Timestamp,
      children: Type.Array(Self),
    }),
  { $id: 'MenuTreeNode' },
);

export const CreateMenuBody = Type.Object(
  {
    code: MenuCode,
    name: MenuName,
    path: Type.Optional(MenuPath),
    icon: Type.Optional(MenuIcon),
    sort: Type.Optional(Sort),
    kind: Type.Optional(MenuKindSchema),
    target: Type.Optional(MenuTarget),
  },
  { additionalProperties: false },
);

export const UpdateMenuBody = Type.Object(
  {
    code: Type.Optional(MenuCode),
    name: Type.Optional(MenuName),
    path: Type.Optional(MenuPath),
    icon: Type.Optional(MenuIcon),
    sort: Type.Optional(Sort),
    kind: Type.Optional(MenuKindSchema),
    target: Type.Optional(MenuTarget),
    parentId: Type.Optional(
      Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
        description: 'Move under another menu; null makes it a root',
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    'x-hint': '至少包含 code、name、path、icon、sort、kind、target、parentId 之一',
  },
);

export const DeleteMenuQuery = Type.Object({
  cascade: Type.Boolean({
    default: false,
    description: 'Also delete every descendant; without it a menu that has children answers 409',
  }),
});

export type CreateMenuInput = Static<typeof CreateMenuBody>;
export type UpdateMenuInput = Static<typeof UpdateMenuBody>;
