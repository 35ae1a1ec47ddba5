import { reactive } from 'vue';

export interface PageTab {
  /** The page's path (no query): one tab per page. */
  path: string;
  title: string;
  /** A pinned tab cannot be closed and stays at the left, after home (vben-admin's 固定). */
  pinned?: boolean;
}

/** What the tab context menu (and the ▾ button next to the tabs) does to one tab. */
export type TabCommand = 'close' | 'closeOthers' | 'closeLeft' | 'closeRight' | 'closeAll' | 'pin' | 'unpin';

/** Home (the first tab) and pinned tabs stay whatever is closed. */
const kept = (t: PageTab, i: number) => i === 0 || t.pinned === true;

/**
 * The tabs after `command` on the tab at `path` (a pure function: the list is not changed). Closing never removes home
 * or a pinned tab; pinning moves the tab to the end of the pinned ones, unpinning to just after them.
 *
 * @example applyTabCommand(tabs, 'closeRight', '/system/users') // home, pinned tabs, and the tabs up to 用户管理
 */
export function applyTabCommand(tabs: readonly PageTab[], command: TabCommand, path: string): PageTab[] {
  const at = tabs.findIndex((t) => t.path === path);
  if (at < 0) return [...tabs];
  switch (command) {
    case 'close':
      return tabs.filter((t, i) => i !== at || kept(t, i));
    case 'closeOthers':
      return tabs.filter((t, i) => i === at || kept(t, i));
    case 'closeLeft':
      return tabs.filter((t, i) => i >= at || kept(t, i));
    case 'closeRight':
      return tabs.filter((t, i) => i <= at || kept(t, i));
    case 'closeAll':
      return tabs.filter(kept);
    case 'pin':
    case 'unpin': {
      if (at === 0) return [...tabs];
      const moved = { ...tabs[at], pinned: command === 'pin' };
      const rest = tabs.filter((_, i) => i !== at);
      const pinnedEnd = rest.findIndex((t, i) => i > 0 && !t.pinned);
      const where = pinnedEnd < 0 ? rest.length : pinnedEnd;
      return [...rest.slice(0, where), moved, ...rest.slice(where)];
    }
  }
}

/** Which commands do something on the tab at `path` (the menu greys out the others). */
export function tabCommandsFor(tabs: readonly PageTab[], path: string): Record<TabCommand, boolean> {
  const at = tabs.findIndex((t) => t.path === path);
  const closable = (t: PageTab, i: number) => !kept(t, i);
  const some = (pred: (i: number) => boolean) => tabs.some((t, i) => pred(i) && closable(t, i));
  return {
    close: at > 0 && closable(tabs[at], at),
    closeOthers: some((i) => i !== at),
    closeLeft: some((i) => i < at),
    closeRight: some((i) => i > at),
    closeAll: some(() => true),
    pin: at > 0 && !tabs[at].pinned,
    unpin: at > 0 && tabs[at].pinned === true,
  };
}

/**
 * The open pages of the desktop shell, as tabs (vben-admin, RuoYi): every page visited opens a tab, the home tab stays,
 * a tab closes to its neighbour, pinned tabs stay at the left and cannot be closed. Kept per browser tab in
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
  const replace = (next: PageTab[]) => {
    state.tabs.splice(0, state.tabs.length, ...next);
    save();
  };

  /**
   * Runs `command` on the tab at `path`; returns where to go when the page shown (`current`) lost its tab: the
   * closed tab's right neighbour, else its left one (for one tab closed), else the tab the command was on.
   */
  function run(command: TabCommand, path: string, current: string): string | undefined {
    const before = state.tabs.map((t) => t.path);
    replace(applyTabCommand(state.tabs, command, path));
    if (state.tabs.some((t) => t.path === current)) return undefined;
    if (command !== 'close') return state.tabs.some((t) => t.path === path) ? path : state.tabs[0].path;
    const i = before.indexOf(current);
    const right = state.tabs.find((t) => before.indexOf(t.path) > i);
    const left = state.tabs.filter((t) => before.indexOf(t.path) < i).at(-1);
    return (right ?? left ?? state.tabs[0]).path;
  }

  return {
    state,
    run,
    /** A page was shown: its tab opens (or takes the page's current title); the oldest closable tab goes past `max`. */
    visit(tab: PageTab): void {
      if (!tab.title) return;
      const found = state.tabs.find((t) => t.path === tab.path);
      if (found) found.title = tab.title;
      else {
        state.tabs.push({ path: tab.path, title: tab.title });
        const oldest = state.tabs.findIndex((t, i) => !kept(t, i));
        if (state.tabs.length > max && oldest < state.tabs.length - 1) state.tabs.splice(oldest, 1);
      }
      save();
    },
    /** Closes a tab (not home, not a pinned one); returns where to go when it was the one shown. */
    close: (path: string, current: string) => run('close', path, current),
    /** Forgets the tabs (signing out: the next user starts afresh, pins included). */
    reset(): void {
      replace([state.tabs[0]]);
    },
  };
}
