// Products: the storefront's catalogue for shoppers, and the owner's catalogue management.
import type { CreateProduct } from '@store/shared';
import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { products, stores } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { expectedVersion, nextVersion, staleEdit } from '../../http/versions.ts';
import { STORE_NOT_FOUND } from '../stores/model.ts';
import { findStoreRef, getOwnStoreOrThrow, isUuid } from '../stores/service.ts';
import { PRODUCT_NOT_FOUND, type ProductView, type UpdateProductBody } from './model.ts';

const productColumns = {
  id: products.id,
  storeId: products.storeId,
  title: products.title,
  description: products.description,
  imageUrl: products.imageUrl,
  priceUsdc: products.priceUsdc,
  isPublished: products.isPublished,
  inventory: products.inventory,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
};

/** A store's products in the order they were added: published ones, or all of them for its owner. */
export async function listStoreProducts(
  db: Database,
  slugOrId: string,
  viewerId: string | undefined,
  publishedOnly: boolean,
): Promise<ProductView[]> {
  const store = await findStoreRef(db, slugOrId);
  const isOwner = store !== undefined && store.ownerId === viewerId;
  if (!store || (!store.isActive && !isOwner)) throw new AppError('not_found', STORE_NOT_FOUND);
  const filter: SQL | undefined =
    isOwner && !publishedOnly ? undefined : eq(products.isPublished, true);
  return db
    .select(productColumns)
    .from(products)
    .where(and(eq(products.storeId, store.id), filter))
    .orderBy(asc(products.createdAt), asc(products.id));
}

async function findProductWithStore(db: Database, id: string) {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({ product: productColumns, ownerId: stores.ownerId, storeActive: stores.isActive })
    .from(products)
    .innerJoin(stores, eq(stores.id, products.storeId))
    .where(eq(products.id, id))
    .limit(1);
  return row;
}

/** A product: shoppers see published products of open stores, the owner sees all of its own. */
export async function getProductForViewer(
  db: Database,
  id: string,
  viewerId: string | undefined,
): Promise<ProductView> {
  const row = await findProductWithStore(db, id);
  const visible = row && (row.ownerId === viewerId || (row.product.isPublished && row.storeActive));
  if (!row || !visible) throw new AppError('not_found', PRODUCT_NOT_FOUND);
  return row.product;
}

/** The merchant's own product; 404 for unknown ids and other merchants' products alike. */
export async function getOwnProductOrThrow(
  db: Database,
  ownerId: string,
  id: string,
): Promise<ProductView> {
  const row = await findProductWithStore(db, id);
  if (!row || row.ownerId !== ownerId) throw new AppError('not_found', PRODUCT_NOT_FOUND);
  return row.product;
}

/** Adds a product to one of the merchant's stores. */
export async function createProduct(
  db: Database,
  ownerId: string,
  input: CreateProduct,
): Promise<ProductView> {
  await getOwnStoreOrThrow(db, ownerId, input.storeId);
  const [created] = await db.insert(products).values(input).returning(productColumns);
  return created as ProductView;
}

/** Applies the merchant's edit; 409 with the current product when `updatedAt` is stale. */
export async function updateProduct(
  db: Database,
  ownerId: string,
  id: string,
  input: UpdateProductBody,
): Promise<ProductView> {
  const current = await getOwnProductOrThrow(db, ownerId, id);
  const { updatedAt, ...fields } = input;
  const expected = expectedVersion(updatedAt);
  if (expected && expected.getTime() !== current.updatedAt.getTime())
    throw staleEdit('product', current);
  const [updated] = await db
    .update(products)
    .set({ ...fields, updatedAt: nextVersion(products.updatedAt) })
    .where(and(eq(products.id, id), expected ? eq(products.updatedAt, expected) : undefined))
    .returning(productColumns);
  if (!updated) throw staleEdit('product', await getOwnProductOrThrow(db, ownerId, id));
  return updated;
}

/** Deletes the merchant's product; past orders keep their own copy of its title and price. */
export async function deleteProduct(db: Database, ownerId: string, id: string) {
  await getOwnProductOrThrow(db, ownerId, id);
  await db.delete(products).where(eq(products.id, id));
  return { id, deleted: true as const };
}
