// Deliveries of file products bought at the storefront: once the order is paid, its shopper (the
// buyer token) gets one link per file, signed for that order and product with the order's own
// buyer token (HMAC-SHA256) and valid for DIGITAL_FILE.linkMinutes. The link alone fetches the
// file until it expires: unguessable, useless for another order or product, refused once the
// order is no longer paid.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DIGITAL_FILE, isRevenueStatus, DIGITAL_FILE_MESSAGES as M } from '@store/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { orders, products } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { isBuyerToken } from '../../http/buyer-token.ts';
import { AppError } from '../../http/errors.ts';
import type { ObjectStore } from '../../uploads/storage.ts';
import { ORDER_MESSAGES } from '../orders/model.ts';

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

async function orderOf(db: Database, id: string) {
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
async function filesOf(
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
 * The signed download links of a paid order, for its shopper (the buyer token); 404 for an unknown
 * order or a wrong token, 409 while it is not paid.
 */
export async function listDownloads(
  db: Database,
  orderId: string,
  buyerToken: string | null | undefined,
  now = Date.now(),
): Promise<{ downloads: DownloadView[] }> {
  const order = await orderOf(db, orderId);
  if (!order || !isBuyerToken(order.buyerToken, buyerToken))
    throw new AppError('not_found', ORDER_MESSAGES.notFound);
  if (!isRevenueStatus(order.status)) throw new AppError('invalid_state', M.notPaid);
  return { downloads: await signedLinks(db, order, now) };
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
  const order = await orderOf(db, orderId);
  if (!order || !isRevenueStatus(order.status)) return [];
  return signedLinks(db, order, now);
}

/** One link per file product of `order`, signed with its buyer token, valid from `now`. */
async function signedLinks(
  db: Database,
  order: NonNullable<Awaited<ReturnType<typeof orderOf>>>,
  now: number,
): Promise<DownloadView[]> {
  const expires = Math.floor(now / 1000) + DIGITAL_FILE.linkMinutes * 60;
  const rows = await filesOf(db, order);
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

/** A file to send: its bytes, type and name. */
export interface DeliveredFile {
  body: Uint8Array;
  type: string;
  name: string;
}

/**
 * The file a signed link names: 403 when the signature is not this order's and product's or the
 * link has expired, 409 when the order is not paid (any more), 404 when the file is gone.
 */
export async function openDownload(
  db: Database,
  files: ObjectStore,
  orderId: string,
  productId: string,
  query: { expires?: string; sig?: string },
  now = Date.now(),
): Promise<DeliveredFile> {
  const expires = Number(query.expires);
  const order = await orderOf(db, orderId);
  const given = Buffer.from(query.sig ?? '');
  const expected = order
    ? Buffer.from(downloadSignature(order.buyerToken, order.id, productId, expires))
    : Buffer.alloc(0);
  if (
    !order ||
    !Number.isSafeInteger(expires) ||
    given.length !== expected.length ||
    !timingSafeEqual(given, expected)
  )
    throw new AppError('forbidden', M.linkInvalid);
  if (expires * 1000 <= now) throw new AppError('forbidden', M.linkExpired);
  if (!isRevenueStatus(order.status)) throw new AppError('invalid_state', M.notPaid);
  const file = (await filesOf(db, order)).find((row) => row.id === productId);
  const body = file?.fileKey ? await files.get(file.fileKey) : null;
  if (!file || !body) throw new AppError('not_found', M.gone);
  return {
    body,
    type: file.fileType ?? 'application/octet-stream',
    name: file.fileName ?? 'download',
  };
}
