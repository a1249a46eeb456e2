// Products: the storefront's catalogue for shoppers, and the owner's catalogue management.

import type { StorePermission } from '@store/shared';
import {
  type CreateProduct,
  type DigitalProduct,
  type DigitalProductInput,
  formatUsdc,
  isAboveCap,
  PRODUCT_FORM_MESSAGES,
  parseUsdc,
} from '@store/shared';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { nextVersion } from '../../db/row-version.ts';
import { products, stores } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { AppError } from '../../http/errors.ts';
import { expectedVersion, staleEdit } from '../../http/versions.ts';
import { availableUnits, heldUnits } from '../../payments/stock.ts';
import { STORE_NOT_FOUND } from '../stores/model.ts';
import { findStoreRef, getOwnStoreOrThrow } from '../stores/service.ts';
import { type Caller, membershipOf, requirePermission } from '../team/access.ts';
import { x402PathOf } from '../x402/model.ts';
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
  trackInventory: products.trackInventory,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
  digitalKind: products.digitalKind,
  upstreamUrl: products.upstreamUrl,
  upstreamSecretHeader: products.upstreamSecretHeader,
  // Note: whether a secret is stored, never the secret itself.
  hasSecret: sql<boolean>`${products.upstreamSecretValue} is not null`,
  fileName: products.fileName,
  fileType: products.fileType,
  fileBytes: products.fileBytes,
  maxPriceUsdc: products.maxPriceUsdc,
};

type ProductRow = Omit<ProductView, 'soldOut' | 'digital' | 'x402Url'> & {
  digitalKind: string | null;
  upstreamUrl: string | null;
  upstreamSecretHeader: string | null;
  hasSecret: boolean;
  fileName: string | null;
  fileType: string | null;
  fileBytes: number | null;
};

/** The product's row as the API shows it: its digital settings (no secret) and payable URL. */
function shown(row: ProductRow, inventory: number, soldOut: boolean): ProductView {
  const {
    digitalKind,
    upstreamUrl,
    upstreamSecretHeader,
    hasSecret,
    fileName,
    fileType,
    fileBytes,
    ...rest
  } = row;
  const digital: DigitalProduct | null =
    digitalKind === 'api' && upstreamUrl
      ? {
          kind: 'api' as const,
          upstreamUrl,
          secretHeaderName: upstreamSecretHeader,
          hasSecret: Boolean(hasSecret),
        }
      : digitalKind === 'file' && fileName && fileType && fileBytes !== null
        ? { kind: 'file' as const, fileName, fileType, fileBytes }
        : null;
  return { ...rest, inventory, soldOut, digital, x402Url: digital ? x402PathOf(row.id) : null };
}

/** The digital settings of a create or edit as columns (the secret value kept when absent). */
function digitalColumns(digital: DigitalProductInput | null | undefined) {
  if (digital === undefined) return {};
  // Note: a file product made physical or an API keeps no file (its object stays in the store,
  // unreachable: keys are random and only the product row names one).
  const noFile = { fileKey: null, fileName: null, fileType: null, fileBytes: null };
  if (digital === null)
    return {
      digitalKind: null,
      upstreamUrl: null,
      upstreamSecretHeader: null,
      upstreamSecretValue: null,
      ...noFile,
    };
  const header = digital.secretHeaderName || null;
  return {
    ...noFile,
    digitalKind: digital.kind,
    upstreamUrl: digital.upstreamUrl,
    upstreamSecretHeader: header,
    ...(header === null
      ? { upstreamSecretValue: null }
      : digital.secretHeaderValue === undefined
        ? {}
        : { upstreamSecretValue: digital.secretHeaderValue || null }),
  };
}

/**
 * Products as a viewer sees them: the owner their stock as it is; a shopper, for tracked products,
 * the units other orders do not hold right now (what they can buy).
 */
async function viewed(db: Database, rows: ProductRow[], asOwner: boolean): Promise<ProductView[]> {
  const tracked = rows.filter((row) => row.trackInventory).map((row) => row.id);
  const held = asOwner || tracked.length === 0 ? new Map() : await heldUnits(db, tracked);
  return rows.map((row) => {
    const inventory = row.trackInventory
      ? availableUnits(row.inventory, held.get(row.id) ?? 0)
      : row.inventory;
    return shown(row, inventory, row.trackInventory && inventory === 0);
  });
}

/** Whether the caller is a member of the store's team (who sees all of its products). */
async function isMember(db: Database, caller: Caller, storeId: string): Promise<boolean> {
  return (await membershipOf(db, caller, storeId)) !== null;
}

/** A store's products in the order they were added: published ones, or all of them for its team. */
export async function listStoreProducts(
  db: Database,
  slugOrId: string,
  viewer: Caller | undefined,
  publishedOnly: boolean,
): Promise<ProductView[]> {
  const store = await findStoreRef(db, slugOrId);
  const isOwner =
    store !== undefined && viewer !== undefined && (await isMember(db, viewer, store.id));
  if (!store || (!store.isActive && !isOwner)) throw new AppError('not_found', STORE_NOT_FOUND);
  const filter: SQL | undefined =
    isOwner && !publishedOnly ? undefined : eq(products.isPublished, true);
  const rows = await db
    .select(productColumns)
    .from(products)
    .where(and(eq(products.storeId, store.id), filter))
    .orderBy(asc(products.createdAt), asc(products.id));
  return viewed(db, rows, isOwner && !publishedOnly);
}

async function findProductWithStore(db: Database, id: string) {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({ product: productColumns, storeActive: stores.isActive })
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
  viewer: Caller | undefined,
): Promise<ProductView> {
  const row = await findProductWithStore(db, id);
  const member =
    row !== undefined && viewer !== undefined && (await isMember(db, viewer, row.product.storeId));
  const visible = row && (member || (row.product.isPublished && row.storeActive));
  if (!row || !visible) throw new AppError('not_found', PRODUCT_NOT_FOUND);
  const [product] = await viewed(db, [row.product], member);
  return product as ProductView;
}

/**
 * A product of the caller's stores when its role there allows `permission`; 404 for unknown ids
 * and other merchants' products alike, 403 for a role that does not allow it.
 */
export async function getOwnProductOrThrow(
  db: Database,
  caller: Caller,
  id: string,
  permission: StorePermission,
): Promise<ProductView> {
  const row = await findProductWithStore(db, id);
  const membership = row ? await membershipOf(db, caller, row.product.storeId) : null;
  if (!row || !membership) throw new AppError('not_found', PRODUCT_NOT_FOUND);
  requirePermission(membership, permission);
  return asOwnerView(row.product);
}

/** The owner's view of a product row: its stock as it is. */
function asOwnerView(row: ProductRow): ProductView {
  return shown(row, row.inventory, row.trackInventory && row.inventory === 0);
}

/** 422 when the price is above the merchant's own cap on it (a mistyped price). */
function checkPriceCap(price: string, cap: string | null | undefined): void {
  if (cap && isAboveCap(price, cap))
    throw new AppError(
      'validation_failed',
      `${PRODUCT_FORM_MESSAGES.priceAboveCap} (${formatUsdc(parseUsdc(cap))} USDC)`,
    );
}

/** Adds a product to one of the merchant's stores. */
export async function createProduct(
  db: Database,
  caller: Caller,
  input: CreateProduct,
): Promise<ProductView> {
  await getOwnStoreOrThrow(db, caller, input.storeId, 'operate');
  checkPriceCap(input.priceUsdc, input.maxPriceUsdc);
  const trackInventory = input.trackInventory ?? input.inventory > 0;
  const { digital, ...fields } = input;
  const [created] = await db
    .insert(products)
    .values({ ...fields, ...digitalColumns(digital), trackInventory })
    .returning(productColumns);
  return asOwnerView(created as ProductRow);
}

/** Applies the merchant's edit; 409 with the current product when `updatedAt` is stale. */
export async function updateProduct(
  db: Database,
  caller: Caller,
  id: string,
  input: UpdateProductBody,
): Promise<ProductView> {
  const current = await getOwnProductOrThrow(db, caller, id, 'operate');
  const { updatedAt, digital, ...fields } = input;
  const expected = expectedVersion(updatedAt);
  if (expected && expected.getTime() !== current.updatedAt.getTime())
    throw staleEdit('product', current);
  checkPriceCap(
    fields.priceUsdc ?? current.priceUsdc,
    fields.maxPriceUsdc === undefined ? current.maxPriceUsdc : fields.maxPriceUsdc,
  );
  // Note: stock given to an untracked product starts counting it; a tracked product keeps counting
  // at 0 (sold out) and when published again, until the merchant turns tracking off.
  const trackInventory =
    fields.trackInventory ??
    (fields.inventory !== undefined && fields.inventory > 0 ? true : undefined);
  const [updated] = await db
    .update(products)
    .set({
      ...fields,
      ...digitalColumns(digital),
      ...(trackInventory === undefined ? {} : { trackInventory }),
      updatedAt: nextVersion(products.updatedAt),
    })
    .where(and(eq(products.id, id), expected ? eq(products.updatedAt, expected) : undefined))
    .returning(productColumns);
  if (!updated) throw staleEdit('product', await getOwnProductOrThrow(db, caller, id, 'operate'));
  return asOwnerView(updated);
}

/** Deletes the merchant's product; past orders keep their own copy of its title and price. */
export async function deleteProduct(db: Database, caller: Caller, id: string) {
  await getOwnProductOrThrow(db, caller, id, 'operate');
  await db.delete(products).where(eq(products.id, id));
  return { id, deleted: true as const };
}

/** A file product's file as the merchant uploaded it (already checked against DIGITAL_FILE). */
export interface ProductFile {
  key: string;
  name: string;
  type: string;
  bytes: number;
}

/** Makes the merchant's product a file product delivering `file` (any API settings dropped). */
export async function setProductFile(
  db: Database,
  caller: Caller,
  id: string,
  file: ProductFile,
): Promise<ProductView> {
  await getOwnProductOrThrow(db, caller, id, 'operate');
  const [updated] = await db
    .update(products)
    .set({
      digitalKind: 'file',
      upstreamUrl: null,
      upstreamSecretHeader: null,
      upstreamSecretValue: null,
      fileKey: file.key,
      fileName: file.name,
      fileType: file.type,
      fileBytes: file.bytes,
      updatedAt: nextVersion(products.updatedAt),
    })
    .where(eq(products.id, id))
    .returning(productColumns);
  if (!updated) throw new AppError('not_found', PRODUCT_NOT_FOUND);
  return asOwnerView(updated);
}
