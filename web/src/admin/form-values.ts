// The store and product dialogs' values: defaults from a record, the request body through the
// shared schemas, and the fields an edit changed (an edit sends only those, so keeping one's
// version after a conflict overwrites only what one actually edited).
import {
  CreateProductSchema,
  CreateStoreSchema,
  DEFAULT_COLORS,
  DEFAULT_THEME,
  IMAGE_HINTS,
  PriceCapSchema,
  parseInventoryInput,
} from '@store/shared';
import * as v from 'valibot';
import type { MerchantProduct, MerchantStore } from './types.ts';

/**
 * A shared schema as the validator of a form of `T`. Note: the schemas accept missing fields
 * (the API's bodies may leave them out); the form always holds every one, so `T` fits.
 */
export function formValidator<T>(schema: v.GenericSchema): v.GenericSchema<T, unknown> {
  return schema as unknown as v.GenericSchema<T, unknown>;
}

/** The store form's fields, all text as typed. */
export interface StoreFormValues {
  name: string;
  slug: string;
  description: string;
  logoUrl: string;
  paymentAddress: string;
  replyToEmail: string;
  theme: string;
  primaryColor: string;
  secondaryColor: string;
  accentColor: string;
}

/** Fresh values, or the store's own for Edit Store. */
export function storeFormDefaults(store?: Partial<MerchantStore>): StoreFormValues {
  return {
    name: store?.name ?? '',
    slug: store?.slug ?? '',
    description: store?.description ?? '',
    logoUrl: store?.logoUrl ?? '',
    paymentAddress: store?.paymentAddress ?? '',
    replyToEmail: store?.replyToEmail ?? '',
    theme: store?.theme ?? DEFAULT_THEME,
    primaryColor: store?.primaryColor ?? DEFAULT_COLORS.primary,
    secondaryColor: store?.secondaryColor ?? DEFAULT_COLORS.secondary,
    accentColor: store?.accentColor ?? DEFAULT_COLORS.accent,
  };
}

/** The product form's fields; inventory stays text until parsed (docs/rules.md#product-form). */
export interface ProductFormValues {
  storeId: string;
  title: string;
  description: string;
  priceUsdc: string;
  imageUrl: string;
  inventory: string;
  /** Whether the stock is counted (0 left: sold out); stock above 0 turns it on. */
  trackInventory: boolean;
  isPublished: boolean;
  /** The merchant's ceiling on the price, as typed; empty: none. */
  maxPriceUsdc: string;
}

/** Fresh values for a store, or the product's own for Edit Product. */
export function productFormDefaults(
  storeId: string,
  product?: Partial<MerchantProduct>,
): ProductFormValues {
  return {
    storeId,
    title: product?.title ?? '',
    description: product?.description ?? '',
    priceUsdc: product?.priceUsdc ?? '',
    imageUrl: product?.imageUrl ?? '',
    inventory: String(product?.inventory ?? 0),
    trackInventory: product?.trackInventory ?? false,
    isPublished: product?.isPublished ?? true,
    maxPriceUsdc: product?.maxPriceUsdc ?? '',
  };
}

/** The price cap field: empty is none (null), anything else the shared cap rules. */
const PriceCapFieldSchema = v.pipe(
  v.string(),
  v.trim(),
  v.transform((text) => (text === '' ? null : text)),
  v.nullable(PriceCapSchema),
);

/** The product form's validation: the shared rules, inventory checked only once parsed. */
export const ProductFormSchema = v.object({
  ...CreateProductSchema.entries,
  inventory: v.string(),
  trackInventory: v.boolean(),
  isPublished: v.boolean(),
  maxPriceUsdc: PriceCapFieldSchema,
});

/** The POST /api/stores body of valid store form values. */
export function storeBody(values: StoreFormValues): v.InferOutput<typeof CreateStoreSchema> {
  return v.parse(CreateStoreSchema, values);
}

/** The POST /api/products body of valid product form values. */
export function productBody(values: ProductFormValues): v.InferOutput<typeof CreateProductSchema> {
  const inventory = parseInventoryInput(values.inventory);
  // Note: stock above 0 is counted (0 means not tracked); a counted product at 0 is sold out.
  return v.parse(CreateProductSchema, {
    ...values,
    inventory,
    trackInventory: values.trackInventory || inventory > 0,
    maxPriceUsdc: v.parse(PriceCapFieldSchema, values.maxPriceUsdc),
  });
}

/** The entries of `next` that differ from `before` (null and '' count as the same). */
export function changedFields<T extends Record<string, unknown>>(
  before: Partial<T>,
  next: T,
): Partial<T> {
  const changes: Partial<T> = {};
  for (const key of Object.keys(next) as (keyof T)[]) {
    if ((before[key] ?? '') !== (next[key] ?? '')) changes[key] = next[key];
  }
  return changes;
}

/** The parsed `body` fields whose form value the merchant changed: what an edit sends. */
export function editedBody(
  before: object,
  after: object,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const changed = changedFields(
    before as Record<string, unknown>,
    after as Record<string, unknown>,
  );
  return Object.fromEntries(Object.keys(changed).map((key) => [key, body[key]]));
}

function formatList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** The upload hint of a logo or a product image, as docs/screens.md#admin-dashboard words it. */
export function imageHint(kind: keyof typeof IMAGE_HINTS): string {
  const hint = IMAGE_HINTS[kind];
  return `${formatList(hint.formats)}, max ${hint.maxLabel}`;
}
