import { ref, shallowRef } from 'vue';

/**
 * An endless list over a paged admin route (`{ items, total }`): `load` fetches the next page (van-list calls it
 * when the bottom comes into view), `reset` starts again from page 1 (after a search or a change).
 */
export function usePaged<T>(fetchPage: (page: number, pageSize: number) => Promise<{ items: T[]; total: number }>) {
  const items = shallowRef<T[]>([]);
  const loading = ref(false);
  const finished = ref(false);
  const error = ref(false);
  let page = 0;
  let generation = 0;

  async function load() {
    const gen = generation;
    loading.value = true;
    try {
      const r = await fetchPage(page + 1, 20);
      if (gen !== generation) return;
      page++;
      items.value = [...items.value, ...r.items];
      finished.value = items.value.length >= r.total || r.items.length === 0;
    } catch {
      if (gen === generation) error.value = true;
    } finally {
      if (gen === generation) loading.value = false;
    }
  }

  async function reset() {
    generation++;
    page = 0;
    items.value = [];
    finished.value = false;
    error.value = false;
    await load();
  }

  return { items, loading, finished, error, load, reset };
}
