// The cached catalogue: stores and published products read from the API are written to
// IndexedDB, and pages read IndexedDB live, so a visited store opens offline with its products.
import type { Product, PublicStore } from '@store/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { isNotFound } from '../lib/api.ts';
import { fetchProduct, fetchPublishedProducts, fetchStore } from '../lib/catalogue-api.ts';
import { type CachedProduct, type CachedStore, db } from './db.ts';

/** Where the network copy of a resource stands. */
export type NetworkState = 'pending' | 'fresh' | 'not-found' | 'failed';

/** A cached resource and whether the network has confirmed it. */
export interface Cached<T> {
  /** The cached (or fresh) value; undefined when there is none yet. */
  data: T | undefined;
  /** True until IndexedDB has answered and, with no cached copy, the network too. */
  loading: boolean;
  network: NetworkState;
}

/** Saves a store read from the API. */
export async function cacheStore(store: PublicStore): Promise<void> {
  await db.stores.put({ ...store, cachedAt: Date.now() });
}

/** Replaces a store's cached products with the published list just read. */
export async function cacheProducts(storeId: string, products: Product[]): Promise<void> {
  const now = Date.now();
  await db.transaction('rw', db.products, async () => {
    await db.products.where('storeId').equals(storeId).delete();
    await db.products.bulkPut(products.map((product) => ({ ...product, cachedAt: now })));
  });
}

/** Forgets a store the API no longer knows, with its products. */
export async function forgetStore(storeId: string): Promise<void> {
  await db.transaction('rw', db.stores, db.products, async () => {
    await db.stores.delete(storeId);
    await db.products.where('storeId').equals(storeId).delete();
  });
}

/**
 * Forgets the whole cached catalogue (carts stay): when a merchant's session ends, since what was
 * read with it may be the owner's view (an unpublished product, an inactive store).
 */
export async function forgetCatalogue(): Promise<void> {
  await db.transaction('rw', db.stores, db.products, async () => {
    await db.stores.clear();
    await db.products.clear();
  });
}

/** Runs `load` once per key and reports how it went (stale-while-revalidate's revalidate half). */
function useRevalidate(key: string | undefined, load: (key: string) => Promise<void>) {
  const [state, setState] = useState<{ key?: string; network: NetworkState }>({
    network: 'pending',
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `load` is stable per key.
  useEffect(() => {
    if (!key) return;
    let live = true;
    setState({ key, network: 'pending' });
    load(key).then(
      () => live && setState({ key, network: 'fresh' }),
      (error: unknown) => {
        if (!live) return;
        if (!isNotFound(error)) console.warn('Catalogue refresh failed', error);
        setState({ key, network: isNotFound(error) ? 'not-found' : 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [key]);
  return state.key === key ? state.network : 'pending';
}

function cached<T>(data: T | undefined, answered: boolean, network: NetworkState): Cached<T> {
  const settled = network !== 'pending';
  return { data, loading: !answered || (data === undefined && !settled), network };
}

/** A store by slug: the cached copy at once, refreshed from the API. */
export function useStoreBySlug(slug: string): Cached<CachedStore> {
  const answer = useLiveQuery(
    async () => ({ store: await db.stores.where('slug').equals(slug).first() }),
    [slug],
  );
  const network = useRevalidate(slug, async (key) => {
    try {
      await cacheStore(await fetchStore(key));
    } catch (error) {
      const stale = await db.stores.where('slug').equals(key).first();
      if (isNotFound(error) && stale) await forgetStore(stale.id);
      throw error;
    }
  });
  return cached(answer?.store, answer !== undefined, network);
}

/** A store's published products: the cached list at once, refreshed from the API. */
export function useStoreProducts(storeId: string | undefined): Cached<CachedProduct[]> {
  const answer = useLiveQuery(
    async () => ({
      products: storeId
        ? await db.products.where('storeId').equals(storeId).sortBy('createdAt')
        : [],
    }),
    [storeId],
  );
  const network = useRevalidate(storeId, async (key) =>
    cacheProducts(key, await fetchPublishedProducts(key)),
  );
  // Note: an empty cache means "not loaded yet" until the API has answered; after a failed
  // refresh it stays unknown, so the page says offline rather than 'No products available'.
  const hasCache = (answer?.products.length ?? 0) > 0;
  const known = hasCache || network === 'fresh' || network === 'not-found';
  return cached(known ? answer?.products : undefined, answer !== undefined, network);
}

/** One product: the cached copy at once, refreshed from the API. */
export function useProduct(productId: string): Cached<CachedProduct> {
  const answer = useLiveQuery(
    async () => ({ product: await db.products.get(productId) }),
    [productId],
  );
  const network = useRevalidate(productId, async (key) => {
    try {
      const product = await fetchProduct(key);
      await db.products.put({ ...product, cachedAt: Date.now() });
    } catch (error) {
      if (isNotFound(error)) await db.products.delete(key);
      throw error;
    }
  });
  return cached(answer?.product, answer !== undefined, network);
}
