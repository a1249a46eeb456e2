// The one IndexedDB database of the web app (Dexie): carts per store, the cached catalogue and
// the shopper's remembered checkout details. Versioned stores: add a version, never edit one.
import type { CartItem, Product, PublicStore } from '@store/shared';
import { Dexie, type EntityTable } from 'dexie';
import type {
  AdminProductRow,
  AdminStoreRow,
  AdminViewRow,
  DraftRow,
  OutboxRow,
} from '../admin/types.ts';
import { importLegacyCart } from './legacy-cart.ts';

// Note: for the storefront's lazy live queries (open.ts), which load this module on demand.
export { liveQuery } from 'dexie';

/**
 * A cart line as stored: the fields of docs/data.md#carts-in-the-browser plus its key, insertion
 * time and known stock.
 */
export interface CartRow extends CartItem {
  /** `{storeId}/{productId}`; lines without a store (outdated) use `-/{productId}`. */
  key: string;
  addedAt: number;
  /** Stock when the line was last changed (0: not tracked), to cap the quantity offline. */
  inventory?: number;
}

/** A cached store, as last read from the API. */
export interface CachedStore extends PublicStore {
  cachedAt: number;
}

/** A cached published product, as last read from the API. */
export interface CachedProduct extends Product {
  cachedAt: number;
}

/** A remembered value (shippingAddress, selectedChain, currentStoreId). */
export interface SettingRow {
  key: string;
  value: unknown;
}

export { cartKey } from './keys.ts';

/** The storefront database. */
export class StorefrontDb extends Dexie {
  cartItems!: EntityTable<CartRow, 'key'>;
  stores!: EntityTable<CachedStore, 'id'>;
  products!: EntityTable<CachedProduct, 'id'>;
  settings!: EntityTable<SettingRow, 'key'>;
  // The merchant's side (admin/): cached own stores, products and API answers, unsynced drafts
  // and the outbox of unsent mutations.
  adminStores!: EntityTable<AdminStoreRow, 'id'>;
  adminProducts!: EntityTable<AdminProductRow, 'id'>;
  adminViews!: EntityTable<AdminViewRow, 'key'>;
  drafts!: EntityTable<DraftRow, 'key'>;
  outbox!: EntityTable<OutboxRow, 'seq'>;

  constructor(name = 'storefront') {
    super(name);
    this.version(1).stores({
      cartItems: 'key, storeId, addedAt',
      stores: 'id, slug',
      products: 'id, storeId',
      settings: 'key',
    });
    this.version(2).stores({
      adminStores: 'id, userId',
      adminProducts: 'id, storeId, userId',
      adminViews: 'key, userId',
      drafts: 'key, userId, storeId',
      outbox: '++seq, userId, entityKey',
    });
    // Note: runs once, when the database is first created, so an old localStorage cart moves in.
    this.on('populate', (tx) => importLegacyCart(tx));
  }
}

/** The app's single database instance. */
export const db = new StorefrontDb();
