// The merchant's data as last read from the API, kept in IndexedDB per merchant so the dashboard
// opens offline. Pages read it live (use-merchant-data.ts); these functions refresh it, and only
// while that merchant's session is remembered, so an answer landing after sign-out is dropped.
import { type StoreAnalytics, StoreAnalyticsSchema } from '@store/shared';
import type { Table } from 'dexie';
import * as v from 'valibot';
import { db } from '../db/db.ts';
import { fetchAnalytics, fetchMyStores, fetchOrders, fetchStoreProducts } from './api.ts';
import {
  CachedOrdersSchema,
  type MerchantOrder,
  type MerchantProduct,
  type MerchantStore,
} from './types.ts';

/** The `adminViews` key of the remembered session (session.ts). */
export const SESSION_KEY = 'session';

/**
 * Runs `write` in one transaction with the session check: nothing is written unless `userId` is
 * the remembered merchant (a refresh answered after sign-out would otherwise outlive it).
 */
async function writeForMerchant(
  userId: string,
  tables: Table[],
  write: () => Promise<unknown>,
): Promise<void> {
  await db.transaction('rw', [db.adminViews, ...tables], async () => {
    const session = await db.adminViews.get(SESSION_KEY);
    if (session?.userId === userId) await write();
  });
}

/**
 * Orders the dashboard's Recent Orders table shows (docs/screens.md#admin-dashboard: the first 5).
 */
export const RECENT_ORDERS_KEY = 'orders:recent';
/** Key of a store's cached 30-day figures. */
export const analyticsKey = (storeId: string) => `analytics:${storeId}`;

/** Saves one store answer of the API (after a refresh or a synced edit). */
export async function cacheMerchantStore(userId: string, store: MerchantStore): Promise<void> {
  await writeForMerchant(userId, [db.adminStores], () => db.adminStores.put({ ...store, userId }));
}

/** Saves one product answer of the API. */
export async function cacheMerchantProduct(userId: string, product: MerchantProduct) {
  await writeForMerchant(userId, [db.adminProducts], () =>
    db.adminProducts.put({ ...product, userId }),
  );
}

/** Saves any other API answer under `key`. */
export async function saveView(userId: string, key: string, value: unknown): Promise<void> {
  await writeForMerchant(userId, [], () =>
    db.adminViews.put({ key: `${userId}/${key}`, userId, value, savedAt: Date.now() }),
  );
}

/** A saved API answer of this merchant, checked against its schema (undefined when absent). */
export async function readView<T>(
  userId: string,
  key: string,
  schema: v.GenericSchema<unknown, T>,
): Promise<T | undefined> {
  const row = await db.adminViews.get(`${userId}/${key}`);
  const parsed = row && v.safeParse(schema, row.value);
  return parsed?.success ? parsed.output : undefined;
}

/** Re-reads the merchant's stores, replacing the cached list. */
export async function refreshStores(userId: string): Promise<MerchantStore[]> {
  const stores = await fetchMyStores();
  await writeForMerchant(userId, [db.adminStores], async () => {
    await db.adminStores.where('userId').equals(userId).delete();
    await db.adminStores.bulkPut(stores.map((store) => ({ ...store, userId })));
  });
  return stores;
}

/** Re-reads one store's products (published or not), replacing the cached list. */
export async function refreshProducts(userId: string, storeId: string): Promise<void> {
  const products = await fetchStoreProducts(storeId);
  await writeForMerchant(userId, [db.adminProducts], async () => {
    await db.adminProducts.where('storeId').equals(storeId).delete();
    await db.adminProducts.bulkPut(products.map((product) => ({ ...product, userId })));
  });
}

/** Re-reads one store's 30-day figures. */
export async function refreshAnalytics(userId: string, storeId: string): Promise<StoreAnalytics> {
  const analytics = await fetchAnalytics(storeId);
  await saveView(userId, analyticsKey(storeId), analytics);
  return analytics;
}

/** Re-reads the newest orders for the dashboard. */
export async function refreshRecentOrders(userId: string, limit: number): Promise<MerchantOrder[]> {
  const orders = await fetchOrders({ limit });
  await saveView(userId, RECENT_ORDERS_KEY, orders);
  return orders;
}

/** Re-reads everything the dashboard shows; rejects when the API cannot be reached. */
export async function refreshDashboard(userId: string, recentLimit: number): Promise<void> {
  const stores = await refreshStores(userId);
  await Promise.all([
    ...stores.map((store) => refreshAnalytics(userId, store.id)),
    refreshRecentOrders(userId, recentLimit),
  ]);
}

/** Schemas of the saved answers, for readers. */
export const ViewSchemas = {
  analytics: StoreAnalyticsSchema,
  orders: CachedOrdersSchema,
} as const;

/** Forgets the cached API answers of every merchant but `keepUserId` (drafts and outbox stay). */
export async function clearMerchantCaches(keepUserId?: string): Promise<void> {
  const other = (row: { userId: string }) => row.userId !== keepUserId;
  await db.transaction('rw', db.adminStores, db.adminProducts, db.adminViews, async () => {
    await db.adminStores.filter(other).delete();
    await db.adminProducts.filter(other).delete();
    await db.adminViews.filter(other).delete();
  });
}

/**
 * Forgets everything of every merchant but `keepUserId`: the cached answers, the remembered
 * session, unsynced drafts and the outbox. Shoppers' carts and settings stay.
 */
export async function clearMerchantData(keepUserId?: string): Promise<void> {
  const other = (row: { userId: string }) => row.userId !== keepUserId;
  const tables = [db.adminStores, db.adminProducts, db.adminViews, db.drafts, db.outbox];
  await db.transaction('rw', tables, async () => {
    await db.adminStores.filter(other).delete();
    await db.adminProducts.filter(other).delete();
    await db.adminViews.filter(other).delete();
    await db.drafts.filter(other).delete();
    await db.outbox.filter(other).delete();
  });
}
