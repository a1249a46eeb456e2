// Refund claim links: the token in /refund/{token}, by which the payer confirms where a refund goes.
// Note: the token is an HMAC of the refund's id keyed with its order's id (a random UUID, the
// shopper's capability for the order's pages already), so the order's payment and thank-you pages
// can show the same link the email carries; only its SHA-256 is stored (`refunds.claim_token_hash`),
// and the outbox keeps the refund's id, never the token.
import { createHmac } from 'node:crypto';
import { receiptIsEmailed } from '@store/shared';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { emailOutbox, orders } from '../db/schema.ts';
import { EMAIL_RETRY_WINDOW_MS } from '../mail/outbox.ts';
import type { Executor } from '../webhooks/outbox.ts';
import { indexerTable } from './indexed-transfers.ts';

/** A claim token: 43 base64url characters (256 bits). */
export const CLAIM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The claim token of a refund. */
export function claimTokenOf(orderId: string, refundId: string): string {
  return createHmac('sha256', orderId).update(`refund-claim:${refundId}`).digest('base64url');
}

/** What is stored of a token: its SHA-256, hex. */
export function claimTokenHash(token: string): string {
  return new Bun.CryptoHasher('sha256').update(token).digest('hex');
}

/** The web app's path of a refund's claim page. */
export function claimPathOf(orderId: string, refundId: string): string {
  return `/refund/${claimTokenOf(orderId, refundId)}`;
}

/**
 * The address that paid the deposit address last (the indexed transfer's `from`), checksummed by
 * the caller; null when the indexer has none.
 */
export async function payingAddressOf(
  db: Database | Executor,
  depositAddress: string,
): Promise<string | null> {
  const rows = await db.execute<{ from: string }>(sql`
    select "from" from ${indexerTable('transfer')} where "to" = ${depositAddress.toLowerCase()}
    order by block_number desc, log_index desc limit 1`);
  return rows[0]?.from ?? null;
}

/**
 * Queues the payer's claim mail of a refund (kind 'refund_claim'); one per order (the outbox's
 * (order, kind) key): a second refund of the same order is claimed from the order's pages.
 */
export async function enqueueRefundClaimMail(
  tx: Executor,
  mail: { orderId: string; refundId: string; to: string },
  at: Date,
): Promise<void> {
  // Note: none for an unsigned universal link, like receipts (anyone could make one that mails a
  // stranger): its payer claims from the order's payment page.
  const [order] = await tx
    .select({ metadata: orders.metadata })
    .from(orders)
    .where(eq(orders.id, mail.orderId))
    .limit(1);
  if (!order || !receiptIsEmailed(order.metadata)) return;
  await tx
    .insert(emailOutbox)
    .values({
      orderId: mail.orderId,
      kind: 'refund_claim',
      toAddress: mail.to,
      payload: { refundId: mail.refundId },
      nextAttemptAt: at,
      retryUntil: new Date(at.getTime() + EMAIL_RETRY_WINDOW_MS),
      createdAt: at,
    })
    .onConflictDoNothing({ target: [emailOutbox.orderId, emailOutbox.kind] });
}
