import { reactive, ref, shallowRef } from 'vue';

export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * State of a paginated list page: the filter form, page, page size, rows, selection and loading flag.
 * `fetchPage` receives the filter as it was when Search was pressed (not as being typed).
 */
export function usePagedList<T, F extends Record<string, unknown>>(
  initialFilter: F,
  fetchPage: (q: F & { page: number; pageSize: number }) => Promise<Page<T>>,
) {
  const filter = reactive({ ...initialFilter }) as F;
  let applied = { ...initialFilter };
  const page = ref(1);
  const pageSize = ref(20);
  const total = ref(0);
  const items = shallowRef<T[]>([]);
  const selection = shallowRef<T[]>([]);
  const loading = ref(false);
  /** Whether an answer has come once: until then the table shows a skeleton, not 「暂无数据」. */
  const loaded = ref(false);

  async function load() {
    loading.value = true;
    try {
      const r = await fetchPage({ ...applied, page: page.value, pageSize: pageSize.value });
      items.value = r.items;
      total.value = r.total;
      // Deleting the last rows of the last page: step back to a page that exists.
      if (r.items.length === 0 && page.value > 1 && r.total > 0) {
        page.value = Math.ceil(r.total / pageSize.value);
        await load();
      }
      loaded.value = true;
    } finally {
      loading.value = false;
    }
  }

  function search() {
    applied = { ...(filter as F) };
    page.value = 1;
    return load();
  }

  function reset() {
    Object.assign(filter, initialFilter);
    return search();
  }

  return {
    filter,
    page,
    pageSize,
    total,
    items,
    selection,
    loading,
    loaded,
    load,
    search,
    reset,
    applied: () => applied,
  };
}

/** Drops empty strings, so optional query fields are left out instead of failing validation. */
export function compact<T extends Record<string, unknown>>(q: T): T {
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== '' && v !== undefined && v !== null)) as T;
}
