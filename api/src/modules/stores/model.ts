// Request schemas and response shapes of the store routes.
import { PAGE_LIMITS, type StoreRole, UpdateStoreSchema } from '@store/shared';
import * as v from 'valibot';
import { UpdatedAtSchema } from '../../http/versions.ts';

const pageNumber = (name: string, min: number, max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,9}$/, `${name} must be a whole number`),
      v.transform(Number),
      v.minValue(min, `${name} must be at least ${min}`),
      v.maxValue(max, `${name} must be at most ${max}`),
    ),
  );

/**
 * Query of GET /api/stores: `mine=true` lists the signed-in merchant's stores; the public list
 * comes in pages of `limit` (default 50, at most 100) from `offset`.
 */
export const ListStoresQuery = v.object({
  mine: v.optional(v.picklist(['true', 'false'], 'mine must be true or false')),
  limit: pageNumber('limit', 1, PAGE_LIMITS.max),
  offset: pageNumber('offset', 0, 100_000_000),
});

/** Body of PUT /api/stores/{id}: the store form's fields (any subset) and the version edited. */
export const UpdateStoreBody = v.object({
  ...UpdateStoreSchema.entries,
  updatedAt: UpdatedAtSchema,
});
/** A validated store update body. */
export type UpdateStoreBody = v.InferOutput<typeof UpdateStoreBody>;

/** A store as everyone may see it (its public fields, the version and the product count). */
export interface PublicStore {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  domain: string | null;
  logoUrl: string | null;
  theme: string;
  primaryColor: string;
  secondaryColor: string;
  accentColor: string;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Published products for the public; all products in the owner's view. */
  productCount: number;
  /** Tax rate in basis points (800 = 8%). */
  taxRateBps: number;
  /** Shipping methods offered with prices and delivery texts; null: the default. */
  shippingOptions: unknown;
  /** Zones of countries with their own tax rate and methods (ShippingZonesSchema). */
  shippingZones: unknown;
  /** Whether the prices include the tax. */
  pricesIncludeTax: boolean;
  /** Shipping time of the product page; null: the default. */
  shippingTime: string | null;
  /** Days within which returns are accepted (0: none); null: the default 30. */
  returnPolicyDays: number | null;
  /** "Verified Store": the payout address signed (EIP-4361) and is still the payout address. */
  verified: boolean;
}

/** A store as its owner sees it: its payout address, where its order webhooks go (never the signing secret). */
export interface OwnerStore extends PublicStore {
  ownerId: string;
  /** The role the reader acts with in the store's team. */
  role: StoreRole;
  paymentAddress: string | null;
  /** Where replies to the store's receipts go. */
  replyToEmail: string | null;
  webhookUrl: string | null;
  /** The address that signed the verification message (kept until the payout address changes). */
  verifiedAddress: string | null;
  verifiedAt: Date | null;
  /** The seller on the store's invoices (null: the store's name alone, no address, no tax id). */
  legalName: string | null;
  legalAddress: string | null;
  taxId: string | null;
  /** Whether the receipt mail carries the invoice PDF. */
  attachInvoiceToReceipt: boolean;
  /** Months orders keep their customer's personal data (null: until erased). */
  customerRetentionMonths: number | null;
}

/** Message of a slug that another store already has. */
export const SLUG_TAKEN = 'That store slug is already taken; choose another';
/** Message of an unknown store (or another merchant's). */
export const STORE_NOT_FOUND = 'Store not found';
