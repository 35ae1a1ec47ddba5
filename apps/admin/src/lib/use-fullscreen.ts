import { onScopeDispose, ref } from 'vue';

/**
 * The whole app in full screen (the header's 全屏 button), following Esc and F11-less exits too. `supported` is false
 * where the browser has no Fullscreen API for pages (Safari on an iPhone).
 */
export function useFullscreen() {
  const supported = document.fullscreenEnabled === true;
  const active = ref(!!document.fullscreenElement);
  const follow = () => (active.value = !!document.fullscreenElement);
  document.addEventListener('fullscreenchange', follow);
  onScopeDispose(() => document.removeEventListener('fullscreenchange', follow));
  return {
    supported,
    active,
    toggle: () =>
      (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen()).catch(
        () => undefined,
      ),
  };
}
