import { reactive } from 'vue';

export interface PageTab {
  /** The page's path (no query): one tab per page. */
  path: string;
  title: string;
}

/**
 * The open pages of the desktop shell, as tabs (vben-admin, RuoYi): every page visited opens a tab, the home tab stays,
 * a tab closes to its neighbour, and "close others" keeps home and the current one. Kept per browser tab in
 * sessionStorage, so a reload keeps them and two browser tabs keep their own.
 */
export function pageTabs(opts: { home: PageTab; max?: number; storage?: Pick<Storage, 'getItem' | 'setItem'> }) {
  const KEY = 'tianji.pageTabs';
  const max = opts.max ?? 12;
  const saved = (() => {
    try {
      const v = JSON.parse(opts.storage?.getItem(KEY) ?? '[]') as PageTab[];
      return Array.isArray(v) ? v.filter((t) => typeof t?.path === 'string' && typeof t?.title === 'string') : [];
    } catch {
      return [];
    }
  })();
  const state = reactive({ tabs: [opts.home, ...saved.filter((t) => t.path !== opts.home.path)] as PageTab[] });
  const save = () => opts.storage?.setItem(KEY, JSON.stringify(state.tabs.slice(1)));

  return {
    state,
    /** A page was shown: its tab opens (or takes the page's current title); the oldest closable tab goes past `max`. */
    visit(tab: PageTab): void {
      if (!tab.title) return;
      const found = state.tabs.find((t) => t.path === tab.path);
      if (found) found.title = tab.title;
      else {
        state.tabs.push(tab);
        if (state.tabs.length > max) state.tabs.splice(1, 1);
      }
      save();
    },
    /** Closes a tab (not home); returns where to go when it was the one shown: its right neighbour, else its left. */
    close(path: string, current: string): string | undefined {
      const i = state.tabs.findIndex((t) => t.path === path);
      if (i <= 0) return undefined;
      state.tabs.splice(i, 1);
      save();
      return path === current ? (state.tabs[i] ?? state.tabs[i - 1]).path : undefined;
    },
    /** Keeps home and `path` only. */
    closeOthers(path: string): void {
      state.tabs.splice(0, state.tabs.length, ...state.tabs.filter((t, i) => i === 0 || t.path === path));
      save();
    },
    /** Keeps home only; returns its path, where to go. */
    closeAll(): string {
      state.tabs.splice(1);
      save();
      return state.tabs[0].path;
    },
    /** Forgets the tabs (signing out: the next user starts afresh). */
    reset(): void {
      state.tabs.splice(1);
      save();
    },
  };
}
