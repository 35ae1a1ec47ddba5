import { createApp } from 'vue';
import 'element-plus/dist/index.css';
// Element Plus's dark variables, used while <html> has class="dark" (theme in @tianji/web-core).
import 'element-plus/theme-chalk/dark/css-vars.css';
import './styles.css';
import App from './App.vue';
import { i18n } from './i18n';
import { router } from './router';
import { isHandled } from './session';
// Applies the remembered (or the system's) theme before the first paint of the app.
import '@tianji/web-core/theme';

const app = createApp(App);
app.use(i18n).use(router);
// Failed calls were already shown (ElMessage) or lead to the sign-in page: keep the console for real bugs.
app.config.errorHandler = (err) => {
  if (!isHandled(err)) console.error(err);
};
window.addEventListener('unhandledrejection', (e) => {
  if (isHandled(e.reason)) e.preventDefault();
});
app.mount('#app');
