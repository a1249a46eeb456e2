// Product schemas: the Add New Product form (POST /api/products), the product read model and the
// inventory input rule.
import * as v from 'valibot';
import { DEFAULT_INVENTORY, MAX_INVENTORY } from '../constants.ts';
import { optionalCappedText, TEXT_LIMITS } from '../limits.ts';
import { PRODUCT_FORM_MESSAGES as M } from '../messages.ts';
import { isPriceString, tryParseUsdc } from '../money.ts';
import {
  MoneyStringSchema,
  missingAsEmpty,
  OptionalText,
  requiredCappedText,
  TimestampSchema,
} from './common.ts';

/** Parses the inventory text field: leading digits as an integer, anything non-numeric (or negative) 0. */
export function parseInventoryInput(input: string): number {
  const match = /^\s*\+?(\d+)/.exec(input);
  if (!match?.[1]) return DEFAULT_INVENTORY;
  const digits = match[1].replace(/^0+(?=\d)/, '');
  // Note: compare as text first so a 30-digit input cannot lose precision; clamp to Postgres integer.
  if (digits.length > String(MAX_INVENTORY).length) return MAX_INVENTORY;
  return Math.min(Number(digits), MAX_INVENTORY);
}

/** True when the price string parses to an amount greater than 0. */
function isPositiveAmount(input: string): boolean {
  const amount = tryParseUsdc(input);
  return amount !== undefined && amount > 0n;
}

/** Product price: required, then a positive number, then decimal(10,2). */
export const ProductPriceSchema = v.pipe(
  missingAsEmpty(M.priceRequired),
  v.trim(),
  v.nonEmpty(M.priceRequired),
  v.check(isPositiveAmount, M.pricePositive),
  v.check(isPriceString, M.pricePrecision),
);

/** Inventory on the wire: a non-negative integer. */
export const InventorySchema = v.pipe(
  v.number(M.inventory),
  v.integer(M.inventory),
  v.minValue(0, M.inventory),
  v.maxValue(MAX_INVENTORY, M.inventory),
);

/** Body of POST /api/products (Add New Product), with the SPEC defaults. */
export const CreateProductSchema = v.object({
  title: requiredCappedText(M.titleRequired, 'Title', TEXT_LIMITS.name),
  description: optionalCappedText('Description', TEXT_LIMITS.description),
  priceUsdc: ProductPriceSchema,
  imageUrl: optionalCappedText('Image URL', TEXT_LIMITS.url),
  inventory: v.optional(InventorySchema, DEFAULT_INVENTORY),
  // Note: whether `inventory` counts units; unset, it does when the inventory is above 0 (SPEC's
  // "0 means untracked" for a new product). A tracked product at 0 is sold out, not unlimited.
  trackInventory: v.optional(v.boolean()),
  isPublished: v.optional(v.boolean(), true),
  storeId: requiredCappedText(M.storeIdRequired, 'Store', TEXT_LIMITS.slug),
});
/** Input of the product form. */
export type CreateProductInput = v.InferInput<typeof CreateProductSchema>;
/** A validated product creation body. */
export type CreateProduct = v.InferOutput<typeof CreateProductSchema>;

/** Body of PUT /api/products/{id}: any subset of the form's fields, same rules, no defaults; the store cannot change. */
export const UpdateProductSchema = v.partial(
  v.object({
    title: CreateProductSchema.entries.title,
    description: CreateProductSchema.entries.description,
    priceUsdc: ProductPriceSchema,
    imageUrl: CreateProductSchema.entries.imageUrl,
    inventory: InventorySchema,
    trackInventory: v.boolean(),
    isPublished: v.boolean(),
  }),
);
/** A validated product update body. */
export type UpdateProduct = v.InferOutput<typeof UpdateProductSchema>;

/** A product as the API returns it. */
export const ProductSchema = v.object({
  id: v.string(),
  storeId: v.string(),
  title: v.string(),
  description: OptionalText,
  imageUrl: OptionalText,
  priceUsdc: MoneyStringSchema,
  isPublished: v.boolean(),
  /** Units left (for shoppers: after what other orders hold) when tracked; 0 untracked. */
  inventory: v.pipe(v.number(), v.integer(), v.minValue(0)),
  trackInventory: v.optional(v.boolean(), false),
  /** Tracked and nothing left to buy. */
  soldOut: v.optional(v.boolean(), false),
  createdAt: v.optional(TimestampSchema),
});
/** A product read model. */
export type Product = v.InferOutput<typeof ProductSchema>;
