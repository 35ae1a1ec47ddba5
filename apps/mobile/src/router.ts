import { createRouter, createWebHistory } from 'vue-router';
import { showNotify } from 'vant';
import type { RouteKey } from '@tianji/client';
import { guardRouter, SERVER_STATUS_ROUTE } from '@tianji/web-core';
import { onSignedOut, session } from './session';

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
    {
      path: '/api-keys',
      name: 'api-keys',
      component: () => import('./pages/ApiKeysPage.vue'),
      meta: { tab: true, title: '接口密钥', needs: 'GET /api/admin/api-keys' },
    },
    {
      path: '/api-keys/:id',
      name: 'api-key',
      component: () => import('./pages/ApiKeyPage.vue'),
      props: true,
      meta: { title: '接口密钥', needs: 'GET /api/admin/api-keys/{id}' },
    },
    {
      path: '/server-status',
      name: 'server-status',
      component: () => import('./pages/ServerStatusPage.vue'),
      meta: { title: '服务监控', needs: SERVER_STATUS_ROUTE },
    },
    { path: '/me', name: 'me', component: () => import('./pages/MePage.vue'), meta: { tab: true, title: '我的' } },
    {
      path: '/me/two-factor',
      name: 'two-factor',
      component: () => import('./pages/TwoFactorPage.vue'),
      meta: { title: '两步验证' },
    },
    {
      path: '/me/passkeys',
      name: 'passkeys',
      component: () => import('./pages/PasskeysPage.vue'),
      meta: { title: '通行密钥' },
    },
    {
      path: '/device',
      name: 'device',
      component: () => import('./pages/DevicePage.vue'),
      meta: { title: '批准设备登录' },
    },
    {
      path: '/quick-add',
      name: 'quick-add',
      component: () => import('./pages/QuickAddPage.vue'),
      meta: { title: '快速添加' },
    },
    { path: '/:rest(.*)*', redirect: '/' },
  ],
});

router.afterEach((to) => {
  document.title = `${to.meta.title ?? '登录'} · 天机`;
});

/**
 * The shared navigation rules (@tianji/web-core). A page whose list the user may not read (a link, or a grant
 * withdrawn meanwhile) is left for the home page; `signedOutNotice` is why the last session ended, shown on the
 * sign-in page until the next sign-in (the notify fades).
 */
export const { signedOutNotice } = guardRouter(router, {
  session,
  onSignedOut,
  names: { login: 'login', home: 'home', password: 'me', totp: 'two-factor' },
  allowed: (to) => {
    const needs = to.meta.needs as RouteKey | undefined;
    return !needs || session.canCall(needs);
  },
  notify: (level, message) =>
    showNotify({
      type: level === 'error' ? 'danger' : level === 'info' ? 'primary' : 'warning',
      message,
      duration: 8000,
    }),
  texts: () => ({ mustChange: '首次登录请先修改密码', noPermission: '没有权限查看此页面' }),
});
