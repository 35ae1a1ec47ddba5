import { CATALOGUE } from '../../catalogue/index.js';
import type { MenuKind } from './schemas.js';

/** Codes of the built-in menus that have a page: what a `page` menu may point at. */
export const PAGE_TARGETS: readonly string[] = CATALOGUE.filter((m) => m.page).map((m) => m.code);

/**
 * Why `target` does not fit a menu of `kind`, in Chinese, or null when it does. A `page` menu may leave its target
 * empty (the admin app then says no page has been chosen); link and embed need an http(s) URL, and an embedded
 * page's origin must be one the operator allowed (MENU_EMBED_ORIGINS), since the admin app frames it.
 */
export function targetProblem(kind: MenuKind, target: string, embedOrigins: readonly string[]): string | null {
  switch (kind) {
    case 'directory':
      return target === '' ? null : '目录菜单不指向页面或网址，target 须为空';
    case 'page':
      return target === '' || PAGE_TARGETS.includes(target)
        ? null
        : `页面菜单的 target 须为内置页面的菜单编码之一：${PAGE_TARGETS.join('、')}`;
    case 'link':
    case 'embed': {
      const url = httpUrl(target);
      if (!url) return `${kind === 'link' ? '外部链接' : '嵌入页面'}的 target 须为 http:// 或 https:// 开头的完整网址`;
      if (kind === 'embed' && !embedOrigins.includes(url.origin))
        return embedOrigins.length
          ? `嵌入页面的来源须为 MENU_EMBED_ORIGINS 中的一个：${embedOrigins.join('、')}`
          : '嵌入页面的来源须在 MENU_EMBED_ORIGINS 中配置（当前未配置任何来源）';
      return null;
    }
  }
}

function httpUrl(s: string): URL | null {
  if (/\s/.test(s) || [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  try {
    const url = new URL(s);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname && !url.username && !url.password
      ? url
      : null;
  } catch {
    return null;
  }
}
