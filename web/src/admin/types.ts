// What the merchant side reads from the API (the shared read models plus the version each edit is
// made on) and the rows it keeps in IndexedDB: the cached merchant data, drafts and the outbox.
import { OrderSchema, ProductSchema, StoreAnalyticsSchema, StoreSchema } from '@store/shared';
import * as v from 'valibot';

/** A store as its owner reads it: `updatedAt` is the version an edit must carry. */
export const MerchantStoreSchema = v.object({
  ...StoreSchema.entries,
  updatedAt: v.string(),
  webhookUrl: v.nullish(v.string()),
});
/** The owner's view of a store. */
export type MerchantStore = v.InferOutput<typeof MerchantStoreSchema>;

/** A product as its owner reads it (published or not), with its version. */
export const MerchantProductSchema = v.object({ ...ProductSchema.entries, updatedAt: v.string() });
/** The owner's view of a product. */
export type MerchantProduct = v.InferOutput<typeof MerchantProductSchema>;

const StockShortfallSchema = v.object({
  productId: v.string(),
  title: v.string(),
  ordered: v.number(),
  available: v.number(),
});

// Note: lenient on the nested JSON (address, items) so one odd old order cannot hide the list.
/** An order of one of the merchant's stores, with its version. */
export const MerchantOrderSchema = v.object({
  id: v.string(),
  storeId: v.string(),
  customerEmail: v.string(),
  shippingAddress: v.nullish(v.record(v.string(), v.unknown())),
  items: v.array(v.looseObject({ title: v.string(), quantity: v.number(), priceUsdc: v.string() })),
  subtotalUsdc: OrderSchema.entries.subtotalUsdc,
  shippingUsdc: OrderSchema.entries.shippingUsdc,
  totalUsdc: OrderSchema.entries.totalUsdc,
  status: OrderSchema.entries.status,
  paymentChain: v.nullish(v.string()),
  paymentTxHash: v.nullish(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
  metadata: v.nullish(
    v.looseObject({
      /** Lines whose stock ran out before the order was paid; ignored when malformed. */
      stockShortfall: v.fallback(v.optional(v.array(StockShortfallSchema)), undefined),
    }),
  ),
});
/** A merchant's order. */
export type MerchantOrder = v.InferOutput<typeof MerchantOrderSchema>;

export { StoreAnalyticsSchema };

/** The signed-in merchant. */
export const MerchantSchema = v.object({ id: v.string(), username: v.string() });
/** The signed-in merchant. */
export type Merchant = v.InferOutput<typeof MerchantSchema>;

/** A cached store of the signed-in merchant; `userId` keeps merchants on one device apart. */
export type AdminStoreRow = MerchantStore & { userId: string };
/** A cached product of the signed-in merchant. */
export type AdminProductRow = MerchantProduct & { userId: string };

/** A cached API answer (analytics, orders, the session), keyed by what it answers. */
export interface AdminViewRow {
  key: string;
  userId: string;
  value: unknown;
  savedAt: number;
}

/** What the outbox can change while offline. */
export type EntityKind = 'store' | 'product';

/** The merchant's local version of a store or product that the server has not confirmed yet. */
export interface DraftRow {
  /** `{kind}:{id}`; an entity created offline has a `local-…` id until its create syncs. */
  key: string;
  kind: EntityKind;
  id: string;
  userId: string;
  /** The product's store (products only). */
  storeId?: string;
  /** The record as the merchant now sees it. */
  data: Record<string, unknown>;
  /** True while the entity exists only on this device. */
  createdLocally: boolean;
  savedAt: number;
}

/** Where an outbox entry stands: waiting, stopped by a 409, or refused by the server. */
export type OutboxStatus = 'pending' | 'conflict' | 'failed';

/** One unsent mutation, replayed in `seq` order with the same Idempotency-Key every time. */
export interface OutboxRow {
  seq?: number;
  userId: string;
  kind: EntityKind;
  op: 'create' | 'update';
  entityId: string;
  /** `{kind}:{entityId}`: entries of one entity replay one after the other. */
  entityKey: string;
  /** The product's store, so a product waits for its store's create. */
  storeId?: string;
  /** Create: the whole form; update: only the fields the merchant changed. */
  body: Record<string, unknown>;
  idempotencyKey: string;
  /** The server version the edit was made on (sent as `updatedAt`). */
  baseUpdatedAt?: string;
  /** True when the edit was made on an unsynced local version: its base is the previous entry's result. */
  basedOnLocal?: boolean;
  status: OutboxStatus;
  attempts: number;
  /** The server's message of a refused entry. */
  error?: string;
  /** The server's current record of a conflicting edit (409 details.current). */
  server?: Record<string, unknown>;
  createdAt: number;
}
