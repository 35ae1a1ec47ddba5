import { match } from 'pinyin-pro';

/** One place the menu search can go to: a page of the user's menus (or home, the profile). */
export interface SearchEntry {
  /** The app route it opens. */
  path: string;
  /** The name shown (in the interface language). */
  name: string;
  /** The menu's Chinese name, matched by its pinyin: 用户管理 by "yonghu", "yhgl", "yh". */
  spoken: string;
  /** The names of the menus above it (系统管理), shown beside it. */
  trail: string[];
}

export interface SearchHit {
  entry: SearchEntry;
  /** Which characters of `entry.name` matched (to highlight them); empty when the pinyin of another language matched. */
  hits: number[];
}

/**
 * The entries whose name contains `query` (any case), or whose Chinese name it spells in pinyin, in full or by
 * initials or a mix (pinyin-pro's `match`, consecutive characters only: "yh" finds 用户管理, "yg" does not). Names that
 * start with it come first, then the name matches, then the pinyin ones, each in menu order.
 *
 * @example searchMenus([{ path: '/system/users', name: '用户管理', spoken: '用户管理', trail: ['系统管理'] }], 'yh')
 */
export function searchMenus(entries: readonly SearchEntry[], query: string): SearchHit[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const ranked: Array<SearchHit & { rank: number }> = [];
  for (const entry of entries) {
    const at = entry.name.toLowerCase().indexOf(q);
    if (at >= 0) {
      ranked.push({ entry, hits: [...q].map((_, i) => at + i), rank: at === 0 ? 0 : 1 });
      continue;
    }
    const spelled = /^[a-z]+$/.test(q.replace(/\s+/g, ''))
      ? match(entry.spoken, q.replace(/\s+/g, ''), { continuous: true })
      : null;
    if (spelled?.length) {
      const hits = entry.name === entry.spoken ? spelled : [];
      ranked.push({ entry, hits, rank: spelled[0] === 0 ? 2 : 3 });
    }
  }
  // Array.prototype.sort is stable: menu order within a rank.
  return ranked.sort((a, b) => a.rank - b.rank).map(({ entry, hits }) => ({ entry, hits }));
}
