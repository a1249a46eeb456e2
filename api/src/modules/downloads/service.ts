// Deliveries of file products bought at the storefront: once the order is paid, its shopper (the
// buyer token) gets one link per file, signed for that order and product with the order's own
// buyer token (HMAC-SHA256) and valid for DIGITAL_FILE.linkMinutes. The link alone fetches the
// file until it expires: unguessable, useless for another order or product, refused once the
// order is no longer paid.
import { timingSafeEqual } from 'node:crypto';
import { isRevenueStatus, DIGITAL_FILE_MESSAGES as M } from '@store/shared';
import type { Database } from '../../db/client.ts';
import { isBuyerToken } from '../../http/buyer-token.ts';
import { AppError } from '../../http/errors.ts';
import {
  type DownloadView,
  downloadSignature,
  orderFiles as filesOf,
  downloadOrderOf as orderOf,
  signedLinks,
} from '../../keys/download-links.ts';
import type { ObjectStore } from '../../uploads/storage.ts';
import { ORDER_MESSAGES } from '../orders/model.ts';

export { type DownloadView, downloadPath, downloadSignature } from '../../keys/download-links.ts';

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
