import { createRouter, createWebHistory, type RouteLocationNormalized } from 'vue-router';
import { ElMessage } from 'element-plus';
import { i18n } from '../i18n';
import { menuOfRoute, pageRoutes, type PageName } from '../lib/menu-routes';
import { onSignedOut, session } from '../session';

/** The component of each built-in page (the catalogue says which menu and path shows it). */
const PAGES: Record<PageName, () => Promise<unknown>> = {
  users: () => import('../pages/UsersPage.vue'),
  roles: () => import('../pages/RolesPage.vue'),
  menus: () => import('../pages/MenusPage.vue'),
  audit: () => import('../pages/AuditPage.vue'),
  sessions: () => import('../pages/SessionsPage.vue'),
  loginLogs: () => import('../pages/LoginLogPage.vue'),
  content: () => import('../pages/ContentPage.vue'),
  usage: () => import('../pages/UsagePage.vue'),
};

/** Every page is its own chunk: the first load carries the sign-in page and the shell only. */
export const router = createRouter({
  history: createWebHistory('/admin/'),
  routes: [
    { path: '/login', name: 'login', component: () => import('../pages/LoginPage.vue'), meta: { public: true } },
    {
      path: '/',
      component: () => import('../components/AppLayout.vue'),
      children: [
        { path: '', name: 'home', component: () => import('../pages/HomePage.vue') },
        ...pageRoutes().map(({ path, page }) => ({
          path: path.slice(1),
          component: PAGES[page],
          props: page === 'content',
        })),
        { path: 'link/:code', component: () => import('../pages/MenuTargetPage.vue') },
        { path: 'embed/:code', component: () => import('../pages/MenuTargetPage.vue') },
        { path: 'profile', name: 'profile', component: () => import('../pages/ProfilePage.vue') },
        { path: 'm/:rest(.*)*', component: () => import('../pages/PlaceholderPage.vue') },
        { path: ':rest(.*)*', component: () => import('../pages/PlaceholderPage.vue') },
      ],
    },
  ],
});

/** The navigation in progress, if any: reactions to session changes wait for it (its guard reloads the menus). */
let pending: RouteLocationNormalized | null = null;
router.afterEach((to) => {
  if (pending === to) pending = null;
});

/**
 * Every navigation reloads the user's menus (/api/auth/me), so a grant changed elsewhere shows at the next
 * click, and a page whose menu is no longer visible is left for the home page.
 */
router.beforeEach(async (to) => {
  pending = to;
  if (to.meta.public) return true;
  try {
    if (!session.signedIn) {
      if (!(await session.restore()))
        return { name: 'login', query: to.fullPath === '/' ? {} : { redirect: to.fullPath } };
    } else {
      await session.me();
    }
  } catch {
    return { name: 'login', query: { redirect: to.fullPath } };
  }
  // A password an operator set (or the generated first one) must be changed before anything else: the server answers
  // every other route 403 PASSWORD_CHANGE_REQUIRED until then, so the app goes to the profile's change-password dialog.
  if (session.mustChangePassword && to.name !== 'profile') {
    ElMessage.warning(i18n.global.t('login.mustChange'));
    return { name: 'profile' };
  }
  const menu = menuOfRoute(to.path);
  if (menu && !session.can(menu)) {
    ElMessage.error(i18n.global.t('common.noPermission'));
    return to.path === '/' ? true : { name: 'home' };
  }
  return true;
});

session.subscribe(() => {
  if (pending) return;
  const route = router.currentRoute.value;
  // Signed in (here or in another tab) while this tab shows the sign-in page: go on to where the user was headed.
  if (route.name === 'login') {
    if (session.user)
      void router.replace(
        typeof route.query.redirect === 'string' && route.query.redirect.startsWith('/') ? route.query.redirect : '/',
      );
    return;
  }
  // The menus changed (e.g. after a 403): leave a page the user may no longer see.
  const menu = menuOfRoute(route.path);
  if (session.user && menu && !session.can(menu)) void router.replace({ name: 'home' });
});

onSignedOut((reason, detail) => {
  const route = router.currentRoute.value;
  if (route.meta.public) return;
  // The server said why (forced out, account disabled, password changed, ...): say exactly that.
  const key = `login.reason.${detail?.code}`;
  if (detail)
    ElMessage({
      type: 'warning',
      message: i18n.global.te(key) ? i18n.global.t(key) : detail.message,
      duration: 8000,
      customClass: 'signed-out-reason',
    });
  else if (reason === 'refresh-failed') ElMessage.warning(i18n.global.t('login.expired'));
  if (reason === 'other-tab') ElMessage.info(i18n.global.t('login.otherTab'));
  void router.replace({ name: 'login', query: reason === 'logout' ? {} : { redirect: route.fullPath } });
});

// Coming back to the tab: pick up grants changed meanwhile.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && session.user) void session.me().catch(() => undefined);
});
