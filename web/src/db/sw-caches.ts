// The service worker's runtime caches (web/vite.config.ts names them from here) and their clearing
// when a merchant's session ends: whatever a request carrying the session cookie brought back
// (an owner's view of a store, an unpublished product, its images) must not outlive it.

/** Cache Storage names of the runtime caching rules. */
export const RUNTIME_CACHES = {
  /** Public catalogue reads (stale-while-revalidate). */
  catalogue: 'catalogue',
  /** Logos and product images (cache-first). */
  images: 'images',
} as const;

/** Deletes every runtime cache (the precached app shell stays); the storefront refills them. */
export async function clearRuntimeCaches(): Promise<void> {
  if (typeof caches === 'undefined') return;
  await Promise.all(Object.values(RUNTIME_CACHES).map((name) => caches.delete(name)));
}
