// What the merchant side reads from the API and the rows it keeps in IndexedDB: the cached
// merchant data, drafts and the outbox. The response types are the API contract's, generated
// from its OpenAPI document (lib/api-types.gen.ts, `bun run api:types`); the schemas below check
// the fields the screens rely on when an answer (or a cached copy) is read.
import {
  OrderSchema,
  ProductSchema,
  StockShortfallSchema,
  StoreAnalyticsSchema,
  StoreSchema,
} from '@store/shared';
import * as v from 'valibot';
import type { components } from '../lib/api-types.gen.ts';

/** The response schemas of the API contract, by name. */
export type ApiSchemas = components['schemas'];

/** The owner's view of a store: `updatedAt` is the version an edit must carry. */
export type MerchantStore = ApiSchemas['OwnerStore'];
/** A product as its owner reads it (published or not), with its version. */
export type MerchantProduct = ApiSchemas['Product'];
/** A merchant's order, with its version. */
export type MerchantOrder = ApiSchemas['Order'];
/** The signed-in merchant. */
export type Merchant = ApiSchemas['Account']['user'];

/** `T` with every field optional, at every depth: what a lenient schema may leave out. */
export type Lenient<T> = T extends readonly (infer U)[]
  ? Lenient<U>[]
  : T extends object
    ? { [K in keyof T]?: Lenient<T[K]> }
    : T;

/**
 * A schema of the fields the app relies on, typed by the contract. Note: its output must fit the
 * contract type field by field (checked by tsc) while it stays lenient on the rest, so that an
 * older cached record still loads; what it passes is read as the contract's type.
 */
export function contractSchema<T>(
  schema: v.GenericSchema<unknown, Lenient<T>>,
): v.GenericSchema<unknown, T> {
  return schema as unknown as v.GenericSchema<unknown, T>;
}

/** The store fields the admin relies on. */
export const MerchantStoreSchema = contractSchema<MerchantStore>(
  v.looseObject({
    ...StoreSchema.entries,
    updatedAt: v.string(),
    webhookUrl: v.nullish(v.string()),
  }),
);

/** The product fields the admin relies on. */
export const MerchantProductSchema = contractSchema<MerchantProduct>(
  v.looseObject({ ...ProductSchema.entries, updatedAt: v.string() }),
);

/** A merchant's order as the API answers it: the one shape of an order (shared OrderSchema). */
export const MerchantOrderSchema = contractSchema<MerchantOrder>(OrderSchema);

/**
 * The value the API gives each order field added since the first admin release, for an order
 * saved to this device by an earlier version: it then reads as today's shape until the list is
 * fetched again (a storefront's order, no discount, no tax, no payee).
 */
const FIELDS_ADDED_SINCE = {
  source: 'storefront',
  payeeAddress: null,
  discountCode: null,
  discountUsdc: '0.00',
  taxUsdc: '0.00',
  paymentAddress: null,
  paymentChain: null,
  paymentTxHash: null,
  shippingAddress: null,
  metadata: null,
} as const;

/** An order as a device saved it, brought to the API's shape (see `FIELDS_ADDED_SINCE`). */
export const CachedOrderSchema = contractSchema<MerchantOrder>(
  v.pipe(
    v.looseObject({}),
    v.transform((saved) => {
      const order: Record<string, unknown> = { ...FIELDS_ADDED_SINCE, ...saved };
      // Note: the lines short of stock only add a warning; a malformed copy is left out.
      if (!v.is(v.nullish(v.array(StockShortfallSchema)), order.stockShortfall))
        delete order.stockShortfall;
      return order;
    }),
    OrderSchema,
  ),
);

/**
 * A saved list of orders: each read through `CachedOrderSchema`, one that still does not read
 * left out (so one odd old order cannot hide the list).
 */
export const CachedOrdersSchema = v.pipe(
  v.array(v.unknown()),
  v.transform((saved) =>
    saved.flatMap((order) => {
      const read = v.safeParse(CachedOrderSchema, order);
      return read.success ? [read.output] : [];
    }),
  ),
);

export { StoreAnalyticsSchema };

/** The signed-in merchant's fields. */
export const MerchantSchema = contractSchema<Merchant>(
  v.object({ id: v.string(), username: v.string() }),
);

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
