import { createRouter, createWebHistory } from 'vue-router';
import { guardRouter } from '@tianji/web-core';
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
  apiKeys: () => import('../pages/ApiKeysPage.vue'),
  serverStatus: () => import('../pages/ServerStatusPage.vue'),
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
        { path: 'device', name: 'device', component: () => import('../pages/DeviceApprovalPage.vue') },
        { path: 'm/:rest(.*)*', component: () => import('../pages/PlaceholderPage.vue') },
        { path: ':rest(.*)*', component: () => import('../pages/PlaceholderPage.vue') },
      ],
    },
  ],
});

const lang = () => (i18n.global.locale.value === 'en' ? 'en' : 'zh');

/** The shared navigation rules (@tianji/web-core): a page is allowed when its menu is visible to the user. */
guardRouter(router, {
  session,
  onSignedOut,
  names: { login: 'login', home: 'home', password: 'profile', totp: 'profile' },
  allowed: (to) => {
    const menu = menuOfRoute(to.path);
    return !menu || session.can(menu);
  },
  notify: (level, text, opts) =>
    ElMessage({
      type: level,
      message: text,
      // The reason a session ended stays long enough to be read on the sign-in page.
      ...(opts?.signedOut ? { duration: 8000, customClass: 'signed-out-reason' } : {}),
    }),
  texts: () => ({ mustChange: i18n.global.t('login.mustChange'), noPermission: i18n.global.t('common.noPermission') }),
  lang,
});
