import { ref } from 'vue';
import { createRouter, createWebHistory, type RouteLocationNormalized } from 'vue-router';
import { showNotify } from 'vant';
import type { RouteKey } from '@tianji/client';
import { signedOutText } from './lib/format';
import { onSignedOut, session } from './session';

/** Why the last session ended, shown on the sign-in page until the next sign-in (the notify fades). */
export const signedOutNotice = ref('');

/** Every page is its own chunk: the first load carries the shell and the sign-in page only. */
export const router = createRouter({
  history: createWebHistory('/m/'),
  routes: [
    { path: '/login', name: 'login', component: () => import('./pages/LoginPage.vue'), meta: { public: true } },
    { path: '/', name: 'home', component: () => import('./pages/HomePage.vue'), meta: { tab: true, title: '首页' } },
    {
      path: '/users',
      name: 'users',
      component: () => import('./pages/UsersPage.vue'),
      meta: { tab: true, title: '用户', needs: 'GET /api/users' },
    },
    {
      path: '/users/:id',
      name: 'user',
      component: () => import('./pages/UserPage.vue'),
      props: true,
      meta: { title: '用户详情', needs: 'GET /api/users/{id}' },
    },
    {
      path: '/sessions',
      name: 'sessions',
      component: () => import('./pages/SessionsPage.vue'),
      meta: { tab: true, title: '会话' },
    },
    { path: '/me', name: 'me', component: () => import('./pages/MePage.vue'), meta: { tab: true, title: '我的' } },
    {
      path: '/quick-add',
      name: 'quick-add',
      component: () => import('./pages/QuickAddPage.vue'),
      meta: { title: '快速添加' },
    },
    { path: '/:rest(.*)*', redirect: '/' },
  ],
});

let pending: RouteLocationNormalized | null = null;
router.afterEach((to) => {
  if (pending === to) pending = null;
  document.title = `${to.meta.title ?? '登录'} · 天机`;
});

/** Every navigation reloads the user's menus (/api/auth/me), so a grant changed elsewhere shows at the next tap. */
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
  // A password set by an operator (or generated) must be changed before anything else: the server answers every
  // other route 403 PASSWORD_CHANGE_REQUIRED until then, so the app goes straight to 我的 → 修改密码.
  if (session.mustChangePassword && to.name !== 'me') {
    showNotify({ type: 'warning', message: '首次登录请先修改密码' });
    return { name: 'me' };
  }
  // A page whose list the user may not read (a link, or a grant withdrawn meanwhile) is left for the home page.
  const needs = to.meta.needs as RouteKey | undefined;
  if (needs && !session.canCall(needs)) {
    showNotify({ type: 'danger', message: '没有权限查看此页面' });
    return to.name === 'home' ? true : { name: 'home' };
  }
  return true;
});

session.subscribe(() => {
  if (pending) return;
  const route = router.currentRoute.value;
  // Signed in (here or in another tab) while this tab shows the sign-in page: go on to where the user was headed.
  if (route.name === 'login' && session.user) {
    signedOutNotice.value = '';
    const to = route.query.redirect;
    void router.replace(typeof to === 'string' && to.startsWith('/') ? to : '/');
  }
});

onSignedOut((reason, detail) => {
  const route = router.currentRoute.value;
  // The server said why (forced out, account disabled, password changed, ...): say exactly that.
  if (detail) signedOutNotice.value = signedOutText(detail.code, detail.message);
  else if (reason === 'refresh-failed') signedOutNotice.value = '登录已过期，请重新登录';
  else if (reason === 'other-tab') signedOutNotice.value = '已在其他标签页退出登录';
  else signedOutNotice.value = '';
  if (route.meta.public) return;
  if (signedOutNotice.value) showNotify({ type: 'warning', message: signedOutNotice.value, duration: 8000 });
  void router.replace({ name: 'login', query: reason === 'logout' ? {} : { redirect: route.fullPath } });
});

// Coming back to the app: pick up grants changed meanwhile.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && session.user) void session.me().catch(() => undefined);
});
