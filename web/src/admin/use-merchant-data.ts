// What the admin pages show: the cached server data with the merchant's unsynced drafts laid over
// it, each item marked with where its sync stands. Live: any write to IndexedDB re-renders.

import type { StoreAnalytics } from '@store/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import type * as v from 'valibot';
import { db } from '../db/db.ts';
import { analyticsKey, readView, ViewSchemas } from './cache.ts';
import type { DraftRow, MerchantProduct, MerchantStore, OutboxRow } from './types.ts';

/** Where an item's local changes stand. */
export type SyncState = 'synced' | 'pending' | 'conflict' | 'failed';

/** An item as shown, with its sync state; `local` while it exists only on this device. */
export interface Tracked<T> {
  item: T;
  sync: SyncState;
  local: boolean;
}

const RANK: Record<SyncState, number> = { synced: 0, pending: 1, failed: 2, conflict: 3 };

function syncStates(entries: readonly OutboxRow[]): Map<string, SyncState> {
  const states = new Map<string, SyncState>();
  for (const entry of entries) {
    const previous = states.get(entry.entityKey) ?? 'synced';
    if (RANK[entry.status] > RANK[previous]) states.set(entry.entityKey, entry.status);
  }
  return states;
}

function overlay<T extends { id: string }>(
  kind: 'store' | 'product',
  cached: readonly T[],
  drafts: readonly DraftRow[],
  entries: readonly OutboxRow[],
  fill: (draft: DraftRow) => T,
): Tracked<T>[] {
  const states = syncStates(entries);
  const byId = new Map(drafts.map((draft) => [draft.id, draft]));
  const shown = cached.map((item) => {
    const draft = byId.get(item.id);
    byId.delete(item.id);
    const sync = states.get(`${kind}:${item.id}`) ?? (draft ? 'pending' : 'synced');
    return { item: draft ? ({ ...item, ...draft.data } as T) : item, sync, local: false };
  });
  const localOnly = [...byId.values()]
    .filter((draft) => draft.createdLocally)
    .sort((a, b) => a.savedAt - b.savedAt)
    .map((draft) => ({
      item: fill(draft),
      sync: states.get(draft.key) ?? 'pending',
      local: true,
    }));
  return [...shown, ...localOnly];
}

function draftStore(draft: DraftRow): MerchantStore {
  const at = new Date(draft.savedAt).toISOString();
  return {
    productCount: 0,
    isActive: true,
    ownerId: draft.userId,
    createdAt: at,
    updatedAt: '',
    ...draft.data,
  } as MerchantStore;
}

function draftProduct(draft: DraftRow): MerchantProduct {
  const at = new Date(draft.savedAt).toISOString();
  return {
    isPublished: true,
    inventory: 0,
    createdAt: at,
    updatedAt: '',
    ...draft.data,
  } as MerchantProduct;
}

/** The merchant's stores with drafts applied; undefined while IndexedDB answers. */
export function useMerchantStores(userId: string): Tracked<MerchantStore>[] | undefined {
  return useLiveQuery(async () => {
    const [stores, drafts, entries] = await Promise.all([
      db.adminStores.where('userId').equals(userId).sortBy('createdAt'),
      db.drafts
        .where('userId')
        .equals(userId)
        .filter((d) => d.kind === 'store')
        .toArray(),
      db.outbox.where('userId').equals(userId).toArray(),
    ]);
    return overlay('store', stores, drafts, entries, draftStore);
  }, [userId]);
}

/** A store's products with drafts applied; undefined while IndexedDB answers. */
export function useMerchantProducts(
  userId: string,
  storeId: string,
): Tracked<MerchantProduct>[] | undefined {
  return useLiveQuery(async () => {
    const [products, drafts, entries] = await Promise.all([
      db.adminProducts.where('storeId').equals(storeId).sortBy('createdAt'),
      db.drafts
        .where('storeId')
        .equals(storeId)
        .filter((d) => d.kind === 'product')
        .toArray(),
      db.outbox.where('userId').equals(userId).toArray(),
    ]);
    const own = products.filter((product) => product.userId === userId);
    return overlay('product', own, drafts, entries, draftProduct);
  }, [userId, storeId]);
}

/** The merchant's outbox entries in order (for the sync panel). */
export function useOutboxEntries(userId: string): OutboxRow[] | undefined {
  return useLiveQuery(() => db.outbox.where('userId').equals(userId).sortBy('seq'), [userId]);
}

/** A cached API answer: `{ value }` once IndexedDB answered (value undefined when none is saved). */
export function useView<T>(
  userId: string,
  key: string,
  schema: v.GenericSchema<unknown, T>,
): { value: T | undefined } | undefined {
  return useLiveQuery(async () => ({ value: await readView(userId, key, schema) }), [userId, key]);
}

/** The cached 30-day figures of each store, by store id (missing stores have none yet). */
export function useAnalyticsMap(
  userId: string,
  storeIds: readonly string[],
): Map<string, StoreAnalytics> {
  const key = storeIds.join(',');
  const answer = useLiveQuery(async () => {
    const entries = await Promise.all(
      storeIds.map(
        async (id) =>
          [id, await readView(userId, analyticsKey(id), ViewSchemas.analytics)] as const,
      ),
    );
    return new Map(
      entries.filter((entry): entry is [string, StoreAnalytics] => entry[1] !== undefined),
    );
    // Note: `key` stands for the id list, so a new array with the same ids does not re-query.
  }, [userId, key]);
  return answer ?? new Map();
}
