// Request schemas and the response shape of the product routes.
import { type DigitalProduct, UpdateProductSchema } from '@store/shared';
import * as v from 'valibot';
import { UpdatedAtSchema } from '../../http/versions.ts';

/** Query of GET /api/stores/{id}/products: `published=true` lists published products only. */
export const ListProductsQuery = v.object({
  published: v.optional(v.picklist(['true', 'false'], 'published must be true or false')),
});

/** Body of PUT /api/products/{id}: the product form's fields (any subset) and the version edited. */
export const UpdateProductBody = v.object({
  ...UpdateProductSchema.entries,
  updatedAt: UpdatedAtSchema,
});
/** A validated product update body. */
export type UpdateProductBody = v.InferOutput<typeof UpdateProductBody>;

/** A product as the API returns it; `priceUsdc` is a 2-decimal string. */
export interface ProductView {
  id: string;
  storeId: string;
  title: string;
  description: string | null;
  imageUrl: string | null;
  priceUsdc: string;
  isPublished: boolean;
  /** Units left when tracked (for shoppers: less other orders' holds); 0 untracked. */
  inventory: number;
  trackInventory: boolean;
  /** Tracked and nothing left to buy. */
  soldOut: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** A digital product's settings (never its secret value); null for a physical product. */
  digital: DigitalProduct | null;
  /** A digital product's payable URL (made absolute by the route); null for a physical one. */
  x402Url: string | null;
  /** The merchant's ceiling on the price; null: none. */
  maxPriceUsdc: string | null;
}

/** Message of an unknown product (or another merchant's, or an unpublished one for shoppers). */
export const PRODUCT_NOT_FOUND = 'Product not found';
