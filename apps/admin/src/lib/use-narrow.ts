import { onScopeDispose, ref } from 'vue';

/** Below this width (a phone, a narrow window) the side menu folds into a drawer. */
export const NARROW_QUERY = '(max-width: 767px)';

/** Whether the window is narrow, following resizes and rotations. */
export function useNarrow() {
  const query = window.matchMedia(NARROW_QUERY);
  const narrow = ref(query.matches);
  const follow = (e: MediaQueryListEvent) => (narrow.value = e.matches);
  query.addEventListener('change', follow);
  onScopeDispose(() => query.removeEventListener('change', follow));
  return narrow;
}
