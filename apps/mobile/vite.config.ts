import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import vue from '@vitejs/plugin-vue';
import Components from 'unplugin-vue-components/vite';
import { VantResolver } from '@vant/auto-import-resolver';
// @ts-expect-error -- a plain .mjs build helper, typed by use
import { ICON_SIZES, iconPng, manifest, serviceWorker } from './scripts/pwa.mjs';

const BASE = '/m/';

/** Emits the icons, the manifest and the service worker (which lists this build's files: the app shell). */
function pwa(): Plugin {
  return {
    name: 'tianji-pwa',
    apply: 'build',
    generateBundle(_opts, bundle) {
      for (const s of ICON_SIZES as number[])
        this.emitFile({ type: 'asset', fileName: `icon-${s}.png`, source: iconPng(s) });
      this.emitFile({
        type: 'asset',
        fileName: 'manifest.webmanifest',
        source: JSON.stringify(manifest(BASE), null, 2),
      });
      const files = [
        ...Object.keys(bundle).filter((f) => /\.(js|css)$/.test(f)),
        'manifest.webmanifest',
        ...(ICON_SIZES as number[]).map((s) => `icon-${s}.png`),
      ].sort();
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: serviceWorker(BASE, files, version) });
    },
  };
}

/**
 * Vant's icon font ships inside its CSS (a data: URL), followed by a fallback on a CDN (at.alicdn.com) that our own
 * CSP blocks: the app would ask a third party on every load for nothing. The fallback is cut, so only the shipped
 * font is named.
 */
const ICON_CDN = /,\s*url\((?:https?:)?\/\/at\.alicdn\.com\/[^)]*\)\s*format\(["']woff["']\)/g;
function shippedIconFont(): Plugin {
  return {
    name: 'tianji-shipped-icon-font',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('/vant/') && id.endsWith('.css') && code.includes('at.alicdn.com'))
        return code.replace(ICON_CDN, '');
    },
  };
}

/**
 * The phone app, served by the tianji server at /m/. Vant components are imported per use (unplugin-vue-components
 * with Vant's resolver, styles included) and every page is its own chunk. `@tianji/client` is read from its sources;
 * what it shares with the desktop app (session, router rules, texts, schema forms) is `@tianji/web-core`.
 */
export default defineConfig({
  base: BASE,
  plugins: [shippedIconFont(), vue(), Components({ resolvers: [VantResolver()], dts: false }), pwa()],
  resolve: {
    alias: {
      '@tianji/client': fileURLToPath(new URL('../../packages/client/src/index.ts', import.meta.url)),
    },
  },
  define: {
    __VUE_OPTIONS_API__: 'false',
    __VUE_PROD_DEVTOOLS__: 'false',
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
  },
  build: { outDir: 'dist', emptyOutDir: true, reportCompressedSize: false },
  // `npm run dev -w @tianji/mobile` next to a running server (npm run dev) on port 3000.
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/openapi.json': 'http://127.0.0.1:3000',
      '/readyz': 'http://127.0.0.1:3000',
    },
  },
});
