// The cached catalogue: stores and published products read from the API are written to
// IndexedDB, and pages read IndexedDB live, so a visited store opens offline with its products.
import type { Product, PublicStore } from '@store/shared';
import { useEffect, useRef, useState } from 'react';
import { isNotFound } from '../lib/api.ts';
import { fetchProduct, fetchPublishedProducts, fetchStore } from '../lib/catalogue-api.ts';
import type { CachedProduct, CachedStore } from './db.ts';
import { afterContent, openDb, useDbQuery } from './open.ts';

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
  const db = await openDb();
  await db.stores.put({ ...store, cachedAt: Date.now() });
}

/** Replaces a store's cached products with the published list just read. */
export async function cacheProducts(storeId: string, products: Product[]): Promise<void> {
  const now = Date.now();
  const db = await openDb();
  await db.transaction('rw', db.products, async () => {
    await db.products.where('storeId').equals(storeId).delete();
    await db.products.bulkPut(products.map((product) => ({ ...product, cachedAt: now })));
  });
}

/** Forgets a store the API no longer knows, with its products. */
export async function forgetStore(storeId: string): Promise<void> {
  const db = await openDb();
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
  const db = await openDb();
  await db.transaction('rw', db.stores, db.products, async () => {
    await db.stores.clear();
    await db.products.clear();
  });
}

/**
 * Runs `load` once per key and reports how it went with the value it read (stale-while-revalidate's
 * revalidate half). Note: the value is shown at once, before IndexedDB has it, so a first visit
 * never waits for the database module; its caching runs after (`save`).
 */
function useRevalidate<T>(
  key: string | undefined,
  load: (key: string) => Promise<T>,
  save: (key: string, value: T) => Promise<void>,
  forget: (key: string) => Promise<void>,
) {
  const [state, setState] = useState<{ key?: string; network: NetworkState; value?: T }>({
    network: 'pending',
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `load`, `save` and `forget` are stable per key.
  useEffect(() => {
    if (!key) return;
    let live = true;
    setState({ key, network: 'pending' });
    load(key).then(
      (value) => {
        if (live) setState({ key, network: 'fresh', value });
        // Note: kept for offline use once the page is shown (the database module loads then).
        afterContent(() => save(key, value)).catch((error: unknown) =>
          console.warn('Catalogue caching failed', error),
        );
      },
      (error: unknown) => {
        // Note: without the network's copy the page needs the cached one now (offline).
        void openDb();
        if (isNotFound(error))
          forget(key).catch((e: unknown) => console.warn('Catalogue cleanup failed', e));
        if (!live) return;
        if (!isNotFound(error)) console.warn('Catalogue refresh failed', error);
        setState({ key, network: isNotFound(error) ? 'not-found' : 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [key]);
  return state.key === key ? state : { network: 'pending' as const, value: undefined };
}

/**
 * What a page shows: the network's copy when it has one (freshest, and there before IndexedDB
 * loads), else the cached copy; loading until one of them has an answer.
 */
function cached<T>(
  stored: T | undefined,
  answered: boolean,
  fetched: { network: NetworkState; value?: T },
): Cached<T> {
  // Note: a failed read is final only once IndexedDB has answered too (it loads after the
  // failure): until then the page waits rather than saying it is offline with a cache at hand.
  const network = fetched.network === 'failed' && !answered ? 'pending' : fetched.network;
  const data = network === 'not-found' ? undefined : (fetched.value ?? stored);
  const settled = network === 'fresh' || network === 'not-found' || network === 'failed';
  return { data, loading: data === undefined && !settled, network };
}

/** A store by slug: the cached copy at once, refreshed from the API. */
export function useStoreBySlug(slug: string): Cached<CachedStore> {
  const answer = useDbQuery(
    async (db) => ({ store: await db.stores.where('slug').equals(slug).first() }),
    [slug],
    { deferred: true },
  );
  const fetched = useRevalidate(
    slug,
    async (key) => ({ ...(await fetchStore(key)), cachedAt: Date.now() }),
    (_key, store) => cacheStore(store),
    async (key) => {
      const stale = await (await openDb()).stores.where('slug').equals(key).first();
      if (stale) await forgetStore(stale.id);
    },
  );
  return cached(answer?.store, answer !== undefined, fetched);
}

/** A store's published products: the cached list at once, refreshed from the API. */
export function useStoreProducts(
  storeId: string | undefined,
  /**
   * The store's slug, when the page has it: the products are then fetched by slug at once,
   * alongside the store itself (the server preloads that read for a store page), not after it.
   */
  slug?: string,
): Cached<CachedProduct[]> {
  const answer = useDbQuery(
    async (db) => ({
      products: storeId
        ? await db.products.where('storeId').equals(storeId).sortBy('createdAt')
        : [],
    }),
    [storeId],
    { deferred: true },
  );
  const knownStoreId = useRef(storeId);
  knownStoreId.current = storeId;
  const fetched = useRevalidate(
    slug ?? storeId,
    async (key) => {
      const now = Date.now();
      return (await fetchPublishedProducts(key)).map((product) => ({ ...product, cachedAt: now }));
    },
    async (_key, products) => {
      // Note: cached under the store's id (the products carry it; an empty list needs the store's).
      const id = products[0]?.storeId ?? knownStoreId.current;
      if (id) await cacheProducts(id, products);
    },
    async () => {},
  );
  // Note: an empty cache means "not loaded yet" until the API has answered; after a failed
  // refresh it stays unknown, so the page says offline rather than 'No products available'.
  const stored = (answer?.products.length ?? 0) > 0 ? answer?.products : undefined;
  return cached(stored, answer !== undefined, fetched);
}

/** One product: the cached copy at once, refreshed from the API. */
export function useProduct(productId: string): Cached<CachedProduct> {
  const answer = useDbQuery(
    async (db) => ({ product: await db.products.get(productId) }),
    [productId],
    { deferred: true },
  );
  const fetched = useRevalidate(
    productId,
    async (key) => ({ ...(await fetchProduct(key)), cachedAt: Date.now() }),
    async (_key, product) => {
      await (await openDb()).products.put(product);
    },
    async (key) => {
      await (await openDb()).products.delete(key);
    },
  );
  return cached(answer?.product, answer !== undefined, fetched);
}
