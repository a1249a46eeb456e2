// The one state machine of the admin's store-scoped pages (team, audit log, customers, payouts,
// discounts): the stores the merchant's role lets them open there (shared/src/team.ts), the store
// chosen (the URL's, or the first), and what the page reads of it from the network: loading,
// loaded, refused (the API's answer, e.g. a role that does not allow it) or offline.
import type { StorePermission } from '@store/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorText } from '../lib/api.ts';
import { refreshStores } from './cache.ts';
import { isLocalId } from './outbox/queue.ts';
import { storesAllowing } from './permissions.ts';
import { useMerchantStores } from './use-merchant-data.ts';

/** What a store-scoped page has of its store's data. */
export type StoreLoad<T> =
  | { state: 'loading' }
  | { state: 'loaded'; value: T }
  | { state: 'refused'; text: string }
  | { state: 'offline' };

/** Thrown by a page's fetch for an answer it cannot read: shown as refused, with this text. */
export class UnreadableAnswer extends Error {}

/** The state an error of the fetch leads to. */
function failed<T>(error: unknown): StoreLoad<T> {
  if (error instanceof ApiError) return { state: 'refused', text: errorText(error) };
  if (error instanceof UnreadableAnswer) return { state: 'refused', text: error.message };
  return { state: 'offline' };
}

export interface StoreLoadOptions<T> {
  userId: string;
  /** The store the URL names, when it names one. */
  storeId: string | undefined;
  /** What the page needs of the merchant's role: only stores that allow it are offered. */
  permission: StorePermission;
  /** Reads the page's data of `storeId`. */
  fetch: (storeId: string) => Promise<T>;
  /** What else the fetch reads (the page's filters): a change reads again. */
  key?: string;
  /** False while the page cannot ask (e.g. its filters are invalid). */
  enabled?: boolean;
}

/**
 * A store-scoped page's stores, chosen store and load. `reload` reads again without going back to
 * loading (after a change); `setLoad` lets a page append ("Load more").
 */
export function useStoreLoad<T>(options: StoreLoadOptions<T>) {
  const { userId, permission, key = '', enabled = true } = options;
  const all = useMerchantStores(userId);
  const stores = storesAllowing(
    (all ?? []).filter((entry) => !isLocalId(entry.item.id)),
    permission,
  );
  const storeId = options.storeId ?? stores[0]?.item.id;
  const [load, setLoad] = useState<StoreLoad<T>>({ state: 'loading' });
  // Note: the latest fetch, without making each render's new function a reason to read again.
  const fetchRef = useRef(options.fetch);
  fetchRef.current = options.fetch;
  // Note: only the newest read may set the state (an older answer arriving late is dropped).
  const generation = useRef(0);

  useEffect(() => {
    refreshStores(userId).catch((error: unknown) => console.warn('Stores refresh failed', error));
  }, [userId]);

  const read = useCallback(async (id: string) => {
    generation.current += 1;
    const mine = generation.current;
    try {
      const value = await fetchRef.current(id);
      if (mine === generation.current) setLoad({ state: 'loaded', value });
    } catch (error) {
      if (mine === generation.current) setLoad(failed<T>(error));
    }
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the fetch's inputs
  useEffect(() => {
    if (!storeId || !enabled) return;
    setLoad({ state: 'loading' });
    void read(storeId);
    return () => {
      generation.current += 1;
    };
  }, [storeId, key, enabled, read]);

  const reload = useCallback(async () => {
    if (storeId) await read(storeId);
  }, [storeId, read]);

  return { stores, storeId, load, setLoad, reload };
}
