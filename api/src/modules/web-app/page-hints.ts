// Early hints of the storefront's pages: the HTML the API serves for /store/{slug} and for a
// product page names the route's own chunks (modulepreload) and the API reads the page will make
// (preload), so a first visit fetches them together with the app's entry instead of one after the
// other (entry → route chunks → data). Read from Vite's build manifest; none without one.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

/**
 * The route modules of each hinted page, as Vite's manifest names them. Note: one the build keeps
 * in the entry (web/vite.config.ts: a store's layout and product grid) has no key of its own and
 * adds nothing.
 */
const STORE_LAYOUT = 'src/routes/store/$slug/route.tsx?tsr-split=component';
const PAGE_ROUTES = {
  store: [STORE_LAYOUT, 'src/routes/store/$slug/index.tsx?tsr-split=component'],
  product: [STORE_LAYOUT, 'src/routes/store/$slug/product/$productId.tsx?tsr-split=component'],
} as const;

const SLUG = /^[a-z0-9-]{1,100}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Files `keys` need beyond what the entry already loads (Vite preloads the entry's own imports). */
function chunkFiles(manifest: Manifest, keys: readonly string[]): string[] {
  const entryOwn = new Set<string>();
  const walk = (key: string, into: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || into.has(key)) return;
    into.add(key);
    for (const imported of chunk.imports ?? []) walk(imported, into);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walk(key, entryOwn);
  const needed = new Set<string>();
  for (const key of keys) walk(key, needed);
  return [...needed]
    .filter((key) => !entryOwn.has(key))
    .map((key) => manifest[key]?.file)
    .filter((file): file is string => Boolean(file));
}

/**
 * Returns a function that gives the `<link>` tags for a page's path (empty when the page has
 * none), or null when the build has no manifest.
 */
export function loadPageHints(distDir: string): ((path: string) => string) | null {
  const file = join(distDir, '.vite', 'manifest.json');
  if (!existsSync(file)) return null;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  const modules = (keys: readonly string[]) =>
    chunkFiles(manifest, keys).map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`);
  const store = modules(PAGE_ROUTES.store);
  const product = modules(PAGE_ROUTES.product);
  // Note: the page's fetches send cookies (credentials: 'include'), so the preloads must too, or
  // the browser would not reuse them.
  const data = (path: string) =>
    `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${path}">`;
  return (path) => {
    const parts = path.split('/');
    // /store/{slug} or /store/{slug}/
    if (parts[1] !== 'store' || !parts[2] || !SLUG.test(parts[2])) return '';
    const slug = parts[2];
    if (parts.length === 3 || (parts.length === 4 && parts[3] === ''))
      return [
        data(`/api/stores/${slug}`),
        data(`/api/stores/${slug}/products?published=true`),
        ...store,
      ].join('');
    if (parts.length === 5 && parts[3] === 'product' && UUID.test(parts[4] ?? ''))
      return [
        data(`/api/stores/${slug}`),
        data(`/api/products/${parts[4]}`),
        // Note: the page's other reads (its reviews, and the chain for its payment facts, read
        // without cookies) arrive with the product, so it renders once with all of them.
        data(`/api/products/${parts[4]}/reviews`),
        '<link rel="preload" as="fetch" crossorigin href="/api/health">',
        ...product,
      ].join('');
    return '';
  };
}
