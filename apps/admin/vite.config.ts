import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';
import Components from 'unplugin-vue-components/vite';
import { ElementPlusResolver } from 'unplugin-vue-components/resolvers';

/**
 * The admin app is served by the tianji server at /admin. Element Plus components are imported per use
 * (unplugin-vue-components) and every page is its own chunk, so the first load stays small.
 * `@tianji/client` is read from its sources: no build of the client is needed before this one.
 */
export default defineConfig({
  base: '/admin/',
  plugins: [vue(), Components({ resolvers: [ElementPlusResolver({ importStyle: false })], dts: false })],
  resolve: {
    alias: { '@tianji/client': fileURLToPath(new URL('../../packages/client/src/index.ts', import.meta.url)) },
  },
  define: {
    __VUE_OPTIONS_API__: 'true',
    __VUE_PROD_DEVTOOLS__: 'false',
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    __VUE_I18N_FULL_INSTALL__: 'false',
    __VUE_I18N_LEGACY_API__: 'false',
    __INTLIFY_PROD_DEVTOOLS__: 'false',
  },
  build: { outDir: 'dist', emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 800 },
  // `npm run dev -w @tianji/admin` next to a running server (npm run dev) on port 3000.
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/openapi.json': 'http://127.0.0.1:3000',
      '/docs': 'http://127.0.0.1:3000',
    },
  },
});
