// Signed download links of file products: one per file of a paid order, signed for that order and
// product with the order's own buyer token (HMAC-SHA256), valid for DIGITAL_FILE.linkMinutes. The
// ground below the download routes (which check them) and the receipt mail (which sends them).
import { createHmac } from 'node:crypto';
import { DIGITAL_FILE, isRevenueStatus } from '@store/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { orders, products } from '../db/schema.ts';
import { isUuid } from '../db/uuid.ts';

/** A download of a paid order, as its shopper gets it. */
export interface DownloadView {
  productId: string;
  title: string;
  fileName: string;
  fileType: string;
  fileBytes: number;
  /** The signed link (a path on this API), valid until `expiresAt`. */
  url: string;
  expiresAt: string;
}

/** The signature of a download link: HMAC-SHA256 under the order's buyer token, base64url. */
export function downloadSignature(
  buyerToken: string,
  orderId: string,
  productId: string,
  expires: number,
): string {
  return createHmac('sha256', buyerToken)
    .update(`download:v1:${orderId}:${productId}:${expires}`)
    .digest('base64url');
}

/** The path of a signed download link. */
export function downloadPath(orderId: string, productId: string, expires: number, sig: string) {
  return `/api/downloads/${orderId}/${productId}?expires=${expires}&sig=${sig}`;
}

/** The order a download link names (none for an id that is not a uuid). */
export async function downloadOrderOf(db: Database, id: string) {
  if (!isUuid(id)) return undefined;
  const [order] = await db
    .select({
      id: orders.id,
      storeId: orders.storeId,
      status: orders.status,
      items: orders.items,
      buyerToken: orders.reviewToken,
    })
    .from(orders)
    .where(eq(orders.id, id))
    .limit(1);
  return order;
}

/** The file products among an order's lines (products of the order's own store only). */
export async function orderFiles(
  db: Database,
  order: { storeId: string | null; items: { productId: string }[] },
) {
  const ids = [...new Set(order.items.map((item) => item.productId).filter(isUuid))];
  if (!order.storeId || ids.length === 0) return [];
  return db
    .select({
      id: products.id,
      title: products.title,
      fileKey: products.fileKey,
      fileName: products.fileName,
      fileType: products.fileType,
      fileBytes: products.fileBytes,
    })
    .from(products)
    .where(
      and(
        inArray(products.id, ids),
        eq(products.storeId, order.storeId),
        eq(products.digitalKind, 'file'),
      ),
    );
}

/**
 * The signed download links of an order for its receipt mail: one per file product, valid
 * DIGITAL_FILE.linkMinutes from `now`; none when the order is unknown or not paid (any more).
 */
export async function paidOrderDownloads(
  db: Database,
  orderId: string,
  now = Date.now(),
): Promise<DownloadView[]> {
  const order = await downloadOrderOf(db, orderId);
  if (!order || !isRevenueStatus(order.status)) return [];
  return signedLinks(db, order, now);
}

/** One link per file product of `order`, signed with its buyer token, valid from `now`. */
export async function signedLinks(
  db: Database,
  order: NonNullable<Awaited<ReturnType<typeof downloadOrderOf>>>,
  now: number,
): Promise<DownloadView[]> {
  const expires = Math.floor(now / 1000) + DIGITAL_FILE.linkMinutes * 60;
  const rows = await orderFiles(db, order);
  return rows.map((row) => ({
    productId: row.id,
    title: row.title,
    fileName: row.fileName ?? '',
    fileType: row.fileType ?? '',
    fileBytes: row.fileBytes ?? 0,
    url: downloadPath(
      order.id,
      row.id,
      expires,
      downloadSignature(order.buyerToken, order.id, row.id, expires),
    ),
    expiresAt: new Date(expires * 1000).toISOString(),
  }));
}
