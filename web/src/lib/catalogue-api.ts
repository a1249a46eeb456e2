// The storefront's catalogue reads (docs/api.md#shopper-routes: stores, a store, its published
// products, a product), each response checked against the shared schema.
// Note: apart from the order calls (lib/shop-api.ts), so a store page's first load does not carry
// the order and checkout schemas.
import { type Product, ProductSchema, type PublicStore, PublicStoreSchema } from '@store/shared';
import * as v from 'valibot';
import { apiGet, apiRequest } from './api.ts';

/** GET /api/stores: the active stores. */
export async function fetchStores(): Promise<PublicStore[]> {
  return v.parse(v.array(PublicStoreSchema), await apiGet(['/api/stores']));
}

/** GET /api/stores/{slugOrId}. */
export async function fetchStore(slugOrId: string): Promise<PublicStore> {
  return v.parse(PublicStoreSchema, await apiGet(['/api/stores', slugOrId]));
}

/** GET /api/stores/{id}/products?published=true. */
export async function fetchPublishedProducts(storeId: string): Promise<Product[]> {
  const path = `/api/stores/${encodeURIComponent(storeId)}/products?published=true`;
  return v.parse(v.array(ProductSchema), await apiRequest('GET', path));
}

/** GET /api/products/{id}. */
export async function fetchProduct(productId: string): Promise<Product> {
  return v.parse(ProductSchema, await apiGet(['/api/products', productId]));
}
