// The email outbox: a receipt row is written in the transaction that marks its order paid (so it
// exists if and only if the payment was recorded); the mail dispatcher sends it later, retrying.
import { receiptIsEmailed } from '@store/shared';
import { eq } from 'drizzle-orm';
import { emailOutbox, orders } from '../db/schema.ts';
import type { Executor } from '../webhooks/outbox.ts';

/** How long a receipt is retried before it is given up (a mail server down for days). */
export const EMAIL_RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * Queues the receipt of a newly paid order; a second call for the same order adds nothing. Note:
 * none for an unsigned universal link: anyone can make one with any store name, text and email
 * address, so the platform would be mailing a stranger's words to anyone for a cent.
 */
export async function enqueueReceipt(tx: Executor, orderId: string, at: Date): Promise<void> {
  const [order] = await tx
    .select({ email: orders.customerEmail, metadata: orders.metadata })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order || !receiptIsEmailed(order.metadata)) return;
  await tx
    .insert(emailOutbox)
    .values({
      orderId,
      kind: 'receipt',
      toAddress: order.email,
      nextAttemptAt: at,
      retryUntil: new Date(at.getTime() + EMAIL_RETRY_WINDOW_MS),
      createdAt: at,
    })
    .onConflictDoNothing({ target: [emailOutbox.orderId, emailOutbox.kind] });
}
