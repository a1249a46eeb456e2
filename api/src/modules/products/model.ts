// Request schemas and the response shape of the product routes.
import { type Product, UpdateProductSchema } from '@store/shared';
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

/**
 * A product as the handlers build it: the shared product shape (ProductSchema, the one the routes
 * declare and check) with its times as dates, which go out as the ISO strings it reads.
 */
export type ProductView = Omit<Product, 'createdAt' | 'updatedAt'> & {
  createdAt: Date;
  updatedAt: Date;
};

/** Message of an unknown product (or another merchant's, or an unpublished one for shoppers). */
export const PRODUCT_NOT_FOUND = 'Product not found';
