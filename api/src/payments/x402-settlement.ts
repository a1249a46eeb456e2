// The worker's side of x402: the relayer submits the payers' EIP-3009 authorizations the API
// recorded (we are the facilitator) and records each in a block or failed. The API wakes it with a
// notification and waits for the answer on the row. The transaction is recorded on the row before
// it is broadcast (`sendFromRelayer`, under the same nonce lock as forwarding), so a crash never
// sends an authorization twice: the token refuses a used one, and a row found `submitted` again
// is checked against the chain (the authorization used, its transaction pending) first.
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { encodeFunctionData, type Hash, type Hex } from 'viem';
import { usdcAbi } from '../chain/usdc-abi.ts';
import type { Database } from '../db/client.ts';
import { x402Payments } from '../db/schema.ts';
import { startWakeableLoop, type WakeableLoop } from '../loops/wakeable-loop.ts';
import {
  type ForwardingChain,
  isAuthorizationUsed,
  isPending,
  receiptOf,
  sendFromRelayer,
  type TxRecord,
} from './forwarding-chain.ts';
import { messageOf, relayerTrouble } from './relayer.ts';

/** The channel the API notifies when it records a payment to settle (payload: its id). */
export const X402_SETTLE_CHANNEL = 'x402_settle';
/** The channel the worker notifies when a payment settled or failed (payload: its id). */
export const X402_SETTLED_CHANNEL = 'x402_settled';

type PaymentRow = typeof x402Payments.$inferSelect;

/** A row claimed `submitted` this long ago without an outcome is looked at again. */
const RECLAIM_AFTER_MS = 15_000;
/** How long one pass waits for a transaction to be mined before it leaves it to the next. */
const RECEIPT_TIMEOUT_MS = 20_000;
/** Receipt polling while a payer waits (a Base block is 200 ms). */
const RECEIPT_POLL_MS = 20;

/** Options of the loop. */
export interface X402SettlementOptions {
  db: Database;
  chain: ForwardingChain;
  log: (line: string) => void;
  /** Time between passes when nothing wakes it. */
  intervalMs?: number;
}

/** Rows to settle now: new ones, and ones claimed long ago with no outcome (a crash). */
async function claimDue(db: Database): Promise<PaymentRow[]> {
  const stale = new Date(Date.now() - RECLAIM_AFTER_MS);
  return db
    .update(x402Payments)
    .set({ status: 'submitted', claimedAt: new Date() })
    .where(
      inArray(
        x402Payments.id,
        db
          .select({ id: x402Payments.id })
          .from(x402Payments)
          .where(
            or(
              eq(x402Payments.status, 'settling'),
              and(eq(x402Payments.status, 'submitted'), lt(x402Payments.claimedAt, stale)),
            ),
          )
          .orderBy(x402Payments.createdAt)
          .limit(16)
          .for('update', { skipLocked: true }),
      ),
    )
    .returning();
}

/** Records the outcome and tells the waiting API. */
async function finish(
  db: Database,
  row: PaymentRow,
  outcome: { txHash: Hash; blockNumber: bigint } | { error: string },
): Promise<void> {
  // Note: one statement (the update and the notification commit together), one round trip. The
  // signed transaction's bytes, kept while it was on its way, go with the outcome.
  const set =
    'error' in outcome
      ? sql`status = 'failed', error = ${outcome.error.slice(0, 1000)}, raw_transaction = null`
      : sql`status = 'settled', tx_hash = ${outcome.txHash},
          block_number = ${outcome.blockNumber.toString()}, settled_at = now(), error = null,
          raw_transaction = null`;
  await db.execute(sql`
    with updated as (
      update ${x402Payments} set ${set}
      where id = ${row.id} and status = 'submitted'
      returning id)
    select pg_notify(${X402_SETTLED_CHANNEL}, ${row.id}) from updated`);
}

/** Where the row keeps its relayer transaction (recorded before broadcast). */
function rowTxRecord(db: Database, id: string): TxRecord {
  return {
    save: async (tx) => {
      await db
        .update(x402Payments)
        .set({ rawTransaction: tx.raw, txHash: tx.hash, txNonce: tx.nonce })
        .where(eq(x402Payments.id, id));
    },
    forget: async (tx) => {
      await db
        .update(x402Payments)
        .set({ rawTransaction: null, txHash: null, txNonce: null })
        .where(and(eq(x402Payments.id, id), eq(x402Payments.txHash, tx.hash)));
    },
  };
}

/**
 * The receipt of `hash` once mined, or null after RECEIPT_TIMEOUT_MS. Note: the receipt itself is
 * polled (one call a poll, the receipt in hand the moment it exists) rather than new blocks and
 * then the receipt (two calls after the block).
 */
async function minedReceipt(options: X402SettlementOptions, hash: Hash) {
  const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const receipt = await receiptOf(options.chain.client, hash).catch(() => null);
    if (receipt) return receipt;
    await Bun.sleep(RECEIPT_POLL_MS);
  }
  return null;
}

/** Waits for `hash` to be mined and records the outcome; false when it is still pending. */
async function recordReceipt(
  options: X402SettlementOptions,
  row: PaymentRow,
  hash: Hash,
): Promise<boolean> {
  const receipt = await minedReceipt(options, hash);
  trace(options, row, 'mined');
  if (!receipt) return false;
  if (receipt.status === 'success')
    await finish(options.db, row, { txHash: hash, blockNumber: receipt.blockNumber });
  else await finish(options.db, row, { error: `its transaction ${hash} reverted` });
  return true;
}

/**
 * With X402_TRACE set, the worker logs each payment's steps (ms since the row was recorded):
 * what `bench/x402` reads to print where the settlement's time goes.
 */
const TRACE = Boolean(process.env.X402_TRACE);
function trace(options: X402SettlementOptions, row: PaymentRow, step: string): void {
  if (TRACE) options.log(`x402-trace ${row.id} ${step} ${Date.now() - row.createdAt.getTime()}`);
}

/** Settles one claimed row: submits the authorization unless it is used or on its way. */
async function settle(options: X402SettlementOptions, row: PaymentRow): Promise<void> {
  trace(options, row, 'claimed');
  const { chain, db } = options;
  const payer = row.payer as Hex;
  const nonce = row.authorizationNonce as Hex;
  // Note: a row without a transaction of ours (recorded before any broadcast) cannot have been
  // used by us, and the API checked it unused a moment ago; were it used meanwhile elsewhere, the
  // gas estimate before signing reverts and nothing is sent. A row with a transaction is checked
  // against the chain first (ours may have landed).
  if (row.txHash && (await isAuthorizationUsed(chain, payer, nonce))) {
    // Note: our own transaction of an earlier attempt, or the payer's own use of it elsewhere.
    const hash = row.txHash as Hash;
    const receipt = await receiptOf(chain.client, hash);
    const ours =
      receipt?.status === 'success' &&
      receipt.logs.some(
        (log) =>
          log.address.toLowerCase() === chain.token.toLowerCase() &&
          log.topics[2]?.toLowerCase().endsWith(row.payTo.slice(2).toLowerCase()),
      );
    if (receipt && ours) return finish(db, row, { txHash: hash, blockNumber: receipt.blockNumber });
    return finish(db, row, { error: 'the authorization was used by another transaction' });
  }
  if (row.txHash && (await isPending(chain.client, row.txHash as Hash))) {
    await recordReceipt(options, row, row.txHash as Hash);
    return;
  }
  if (BigInt(row.validBefore) <= BigInt(Math.floor(Date.now() / 1000)))
    return finish(db, row, { error: 'the authorization expired before it settled' });
  trace(options, row, 'checked');
  const data = encodeFunctionData({
    abi: usdcAbi,
    functionName: 'transferWithAuthorization',
    args: [
      payer,
      row.payTo as Hex,
      BigInt(row.value),
      BigInt(row.validAfter),
      BigInt(row.validBefore),
      nonce,
      row.signature as Hex,
    ],
  });
  let sent: Hash;
  try {
    sent = (await sendFromRelayer(chain, { to: chain.token, data }, rowTxRecord(db, row.id))).hash;
  } catch (error) {
    const trouble = relayerTrouble(error);
    // Note: the relayer's trouble (no ETH, a nonce race) is not the payer's: tried again later.
    if (trouble) {
      options.log(`x402: payment ${row.id} waits for the relayer: ${trouble}`);
      return;
    }
    return finish(db, row, { error: messageOf(error) });
  }
  trace(options, row, 'broadcast');
  await recordReceipt(options, row, sent);
  trace(options, row, 'recorded');
}

/** Starts the loop; it wakes on the API's notifications. */
export function startX402Settlement(options: X402SettlementOptions): WakeableLoop {
  const { db, log } = options;
  // Note: each payment settles on its own (its receipt awaited apart), so one waiting for its
  // block never delays the next payment's submission.
  const inFlight = new Set<Promise<void>>();
  const loop = startWakeableLoop(
    'x402 settlement',
    options.intervalMs ?? 1_000,
    async () => {
      const due = await claimDue(db);
      for (const row of due) {
        const settling = settle(options, row).catch((error: unknown) =>
          log(`x402: payment ${row.id} not settled yet: ${messageOf(error)}`),
        );
        inFlight.add(settling);
        void settling.finally(() => inFlight.delete(settling));
      }
      return due.length > 0;
    },
    log,
  );
  // Note: a notification lost while the connection is down costs at most one interval.
  const listening = db.$client
    .listen(X402_SETTLE_CHANNEL, () => loop.wake())
    .catch(() => undefined);
  return {
    wake: loop.wake,
    stop: async () => {
      await (await listening)?.unlisten();
      await loop.stop();
      await Promise.all(inFlight);
    },
  };
}
