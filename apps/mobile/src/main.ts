import { createApp } from 'vue';
import './styles.css';
import App from './App.vue';
import { router } from './router';
import { isHandled } from './session';
// Applies the remembered (or the system's) theme before the first paint of the app.
import '@tianji/web-core/theme';

const app = createApp(App);
app.use(router);
// Failed calls were already shown (toast) or lead to the sign-in page: keep the console for real bugs.
app.config.errorHandler = (err) => {
  if (!isHandled(err)) console.error(err);
};
window.addEventListener('unhandledrejection', (e) => {
  if (isHandled(e.reason)) e.preventDefault();
});
app.mount('#app');

// Installable app: the service worker caches the app shell (never API answers), see scripts/pwa.mjs.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener(
    'load',
    () => void navigator.serviceWorker.register('/m/sw.js', { scope: '/m/' }).catch(() => undefined),
  );
}
