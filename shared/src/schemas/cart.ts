// Cart schemas: the per-store carts kept in browser storage (docs/data.md#carts-in-the-browser).
import * as v from 'valibot';
import { DEFAULT_CHAIN } from '../constants.ts';
import { MoneyStringSchema } from './common.ts';
import { LineQuantitySchema } from './order.ts';

/** A cart line. Note: storeId is optional because old carts lack it; such lines are flagged outdated. */
export const CartItemSchema = v.object({
  productId: v.string(),
  storeId: v.optional(v.string()),
  title: v.string(),
  priceUsdc: MoneyStringSchema,
  quantity: LineQuantitySchema,
  imageUrl: v.nullish(v.string()),
});
/** A cart line. */
export type CartItem = v.InferOutput<typeof CartItemSchema>;

// Note: in a module without schemas, so the storefront's cart code does not load them.
export { isOutdatedCartItem } from '../cart-item.ts';

/** Shipping details remembered between visits; every field optional. */
export const SavedShippingAddressSchema = v.partial(
  v.object({
    firstName: v.string(),
    lastName: v.string(),
    email: v.string(),
    phone: v.string(),
    street: v.string(),
    city: v.string(),
    state: v.string(),
    zipCode: v.string(),
    country: v.string(),
  }),
);

/** The persisted cart state: carts keyed by storeId, shipping details, chain and current store. */
export const CartStateSchema = v.object({
  carts: v.record(v.string(), v.array(CartItemSchema)),
  shippingAddress: v.optional(SavedShippingAddressSchema),
  selectedChain: v.optional(v.string(), DEFAULT_CHAIN),
  currentStoreId: v.nullish(v.string()),
});
/** The persisted cart state. */
export type CartState = v.InferOutput<typeof CartStateSchema>;
