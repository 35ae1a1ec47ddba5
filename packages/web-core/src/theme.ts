import { computed, reactive } from 'vue';

/** The user's choice: light, dark, or whatever the system says (the default). */
export type ThemeChoice = 'light' | 'dark' | 'system';

const KEY = 'tianji.theme';
const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
const read = (): ThemeChoice => {
  const v = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
  return v === 'light' || v === 'dark' ? v : 'system';
};

const state = reactive({ choice: read(), systemDark: media?.matches ?? false });

/** Dark mode, shared by both web apps: follows the system until the user picks, then remembers the pick. */
export const theme = {
  get choice(): ThemeChoice {
    return state.choice;
  },
  /** Whether the interface is dark now. */
  dark: computed(() => (state.choice === 'system' ? state.systemDark : state.choice === 'dark')),
  /** Picks a theme and remembers it in this browser (`system`: follow the system again). */
  set(choice: ThemeChoice): void {
    state.choice = choice;
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
    apply();
  },
  /** The header's switch: the other theme than the one shown, remembered. */
  toggle(): void {
    theme.set(theme.dark.value ? 'light' : 'dark');
  },
};

/** Puts `class="dark"` on <html> (Element Plus's dark variables, the apps' own styles) and the colour scheme. */
function apply(): void {
  if (typeof document === 'undefined') return;
  const dark = theme.dark.value;
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

media?.addEventListener('change', (e) => {
  state.systemDark = e.matches;
  apply();
});
// Another tab picked a theme: follow it.
if (typeof window !== 'undefined')
  window.addEventListener('storage', (e) => {
    if (e.key !== KEY) return;
    state.choice = read();
    apply();
  });
apply();
