// Postgres notifications from the worker (which detects payments) to the API processes (which
// push them to the payment pages): the order whose payment state the worker just recorded, and
// each new head of the indexer the detection loop saw. NOTIFY inside a transaction is delivered at
// its commit, so a listener never reads a state before it is stored.
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';

/** Channel of the orders whose payment state changed; the payload is the order id. */
export const PAYMENT_CHANGES_CHANNEL = 'payment_changes';

/** Channel of the indexer's new heads as the detection loop sees them; the payload is the block. */
export const INDEXED_HEAD_CHANNEL = 'indexed_head';

/** Tells the listeners that the order's payment state changed (at commit, inside a transaction). */
export async function noticePaymentChange(db: Executor, orderId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${PAYMENT_CHANGES_CHANNEL}, ${orderId})`);
}

/** Tells the listeners that the indexer reached `block` (confirmations grew). */
export async function noticeIndexedHead(db: Executor, block: bigint): Promise<void> {
  await db.execute(sql`select pg_notify(${INDEXED_HEAD_CHANNEL}, ${String(block)})`);
}
