import { reactive } from 'vue';

/** A column of a list table as the 列设置 popover offers it. */
export interface ColumnInfo {
  /** Stable name of the column within its list (its `prop`, `column-key`, else its label). */
  key: string;
  label: string;
  /** The first, identifying column and the 操作 column stay shown: a row must still say what it is and what to do. */
  locked: boolean;
}

/**
 * The columns of a table in order, each `locked` when it may not be hidden: the first one and the one labelled
 * `actionsLabel` (or fixed to the right, where the 操作 column sits).
 *
 * @example describeColumns([{ label: '用户名', prop: 'username' }, { label: '操作' }], '操作') // both locked
 */
export function describeColumns(
  columns: Array<{ label: string; prop?: string; columnKey?: string; fixed?: unknown }>,
  actionsLabel: string,
): ColumnInfo[] {
  return columns.map((c, i) => ({
    key: c.columnKey || c.prop || c.label,
    label: c.label,
    locked: i === 0 || c.label === actionsLabel || c.fixed === 'right',
  }));
}

/** Where a list's hidden columns are kept: per list and per signed-in user (two operators on one browser differ). */
export const columnStorageKey = (list: string, userId: string | undefined) =>
  `tianji.columns.${userId ?? 'anonymous'}.${list}`;

/**
 * Which columns of one list the operator has hidden, kept in `storage` under `key` (localStorage in the apps), so a
 * reload or a later visit shows the table as it was left. Locked columns are never hidden, even if stored.
 */
export function columnSettings(key: string, storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>) {
  const read = (): string[] => {
    try {
      const v = JSON.parse(storage?.getItem(key) ?? '[]') as unknown;
      return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
    } catch {
      return [];
    }
  };
  const state = reactive({ hidden: read() });
  const save = () => {
    if (state.hidden.length) storage?.setItem(key, JSON.stringify(state.hidden));
    else storage?.removeItem(key);
  };
  return {
    state,
    /** Whether the column is shown (a locked column always is). */
    shown: (c: Pick<ColumnInfo, 'key' | 'locked'>) => c.locked || !state.hidden.includes(c.key),
    /** Shows or hides one column (a locked one stays shown) and remembers it. */
    set(c: Pick<ColumnInfo, 'key' | 'locked'>, shown: boolean): void {
      if (c.locked) return;
      state.hidden = shown ? state.hidden.filter((k) => k !== c.key) : [...new Set([...state.hidden, c.key])];
      save();
    },
    /** Every column shown again, and nothing kept. */
    reset(): void {
      state.hidden = [];
      save();
    },
  };
}
export type ColumnSettings = ReturnType<typeof columnSettings>;
