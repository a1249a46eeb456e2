// Vite config of the web PWA: React, TanStack file routes, the service worker
// and manifest (vite-plugin-pwa), and the /api proxy for dev and preview.
import { fileURLToPath } from 'node:url';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import {
  APP_DESCRIPTION,
  APP_NAME,
  APP_SHORT_NAME,
  DARK_BACKGROUND,
  THEME_COLOURS,
} from './src/app-meta.ts';
import { RUNTIME_CACHES } from './src/db/sw-caches.ts';

const webDir = fileURLToPath(new URL('.', import.meta.url));
// Note: what the API answers under a store's pages; a `^` key is a regular expression to Vite.
const STORE_INSTALL_FILES = /^\/store\/[^/]+\/(?:manifest\.webmanifest|icon-[\w-]+\.png)(?:\?|$)/;
// Note: route ids as TanStack Router names them (the store's layout and its index page).
const STOREFRONT_ROUTES = new Set<string>(['/store/$slug', '/store/$slug/']);
// Note: React, React DOM and the router change with a dependency update only: one chunk of their
// own, cached across the app's releases.
const FRAMEWORK_MODULES =
  /node_modules[\\/](?:react|react-dom|scheduler|use-sync-external-store|@tanstack[\\/](?:react-router|router-core|history|store|react-store))[\\/]/;
const apiUrl = process.env.API_URL ?? 'http://localhost:3000';
const devPort = Number(process.env.WEB_PORT ?? process.env.PORT ?? 5173);

// Note: the browser's Host goes through unchanged, so the API sees its state-changing requests
// come from the page's own origin (it refuses cross-origin ones).
const proxy: Record<string, ProxyOptions> = {
  '/api': { target: apiUrl, changeOrigin: false },
  '/.well-known': { target: apiUrl, changeOrigin: false },
  // Each store's web manifest and install icons (api/src/modules/store-manifest).
  [STORE_INSTALL_FILES.source]: { target: apiUrl, changeOrigin: false },
};

export default defineConfig({
  root: webDir,
  plugins: [
    // Note: must come before the React plugin; it (re)writes src/routeTree.gen.ts
    // on every dev start, build and vitest run.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // Note: a store's layout and its product grid are not split off: most first visits open a
      // store, whose page then needs no route chunk after the entry (one request less in the
      // chain); the other routes stay lazy.
      codeSplittingOptions: {
        splitBehavior: ({ routeId }) => (STOREFRONT_ROUTES.has(routeId) ? [] : undefined),
      },
      routesDirectory: `${webDir}src/routes`,
      generatedRouteTree: `${webDir}src/routeTree.gen.ts`,
      quoteStyle: 'single',
      semicolons: true,
    }),
    react(),
    VitePWA({
      // Note: 'prompt' keeps the old worker (and its chunks) until the user
      // accepts the update, so a shopper mid-checkout is never reloaded.
      registerType: 'prompt',
      injectRegister: false,
      // Note: globPatterns below already precache every icon in public/.
      includeManifestIcons: false,
      manifest: {
        id: '/',
        name: APP_NAME,
        short_name: APP_SHORT_NAME,
        description: APP_DESCRIPTION,
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: THEME_COLOURS.primary,
        background_color: DARK_BACKGROUND,
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        navigateFallback: '/index.html',
        // Note: API and well-known documents, and a store's manifest and icons, must reach the
        // network, never the shell.
        navigateFallbackDenylist: [/^\/api\//, /^\/\.well-known\//, STORE_INSTALL_FILES],
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          {
            // Public catalogue reads only, by an allow-list of the storefront's own requests
            // (lib/shop-api.ts): the store list, one store, its published products, one product.
            // Note: never any other /api/ route: the merchant's reads (`?mine=true`, a store's
            // webhook secret and delivery log, analytics, orders) must not sit in a cache. The
            // browser sends the session cookie with these too (an owner sees an unpublished
            // product): sign-out deletes this cache (src/db/sw-caches.ts).
            // A segment is a slug or a UUID: an encoded '/' or '.' never slips another route in.
            // Note: workbox inlines this function's source into the worker; it must stay
            // self-contained.
            urlPattern: ({ url, sameOrigin }) => {
              if (!sameOrigin) return false;
              const { pathname, search } = url;
              if (pathname === '/api/stores' || /^\/api\/(stores|products)\/[\w-]+$/.test(pathname))
                return search === '';
              return (
                /^\/api\/stores\/[\w-]+\/products$/.test(pathname) && search === '?published=true'
              );
            },
            method: 'GET',
            handler: 'StaleWhileRevalidate',
            options: {
              cacheName: RUNTIME_CACHES.catalogue,
              expiration: { maxEntries: 300, maxAgeSeconds: 7 * 24 * 60 * 60 },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            // Logos and product images, often on other origins (opaque: status 0); never /api/.
            urlPattern: ({ request, url, sameOrigin }) =>
              request.destination === 'image' && !(sameOrigin && url.pathname.startsWith('/api/')),
            handler: 'CacheFirst',
            options: {
              cacheName: RUNTIME_CACHES.images,
              expiration: {
                maxEntries: 150,
                maxAgeSeconds: 30 * 24 * 60 * 60,
                purgeOnQuotaError: true,
              },
              cacheableResponse: { statuses: [0, 200] },
            },
          },
        ],
      },
    }),
  ],
  // Note: dist/.vite/manifest.json tells the API which chunks a store page needs, so the HTML it
  // serves for one can ask for them (and the store's data) at once (api/src/modules/web-app).
  // Note: every browser the app supports knows modulepreload; no polyfill in the entry.
  build: {
    manifest: true,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'framework', test: FRAMEWORK_MODULES, priority: 2 },
            // Note: every module the entry loads statically goes into the entry's own chunk. Left
            // to itself the bundler cuts what the entry shares with lazy routes into many small
            // chunks (28 files for a store page, each one a request and its own gzip
            // dictionary). The group is closed under static imports by definition, so its
            // members' dependencies need not be pulled in (doing so would drag in modules the
            // entry only reaches through a re-exporting index and never uses).
            {
              name: 'index',
              tags: ['$initial'],
              priority: 1,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: { port: devPort, strictPort: true, proxy },
  preview: { port: 4173, strictPort: true, proxy },
});
