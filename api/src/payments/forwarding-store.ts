// Postgres side of forwarding: the wallets with work, a round's legs (written before anything is
// signed or sent), and the completion of a round in ONE transaction with its `order.forwarded`
// webhook. The chain is the truth about what was paid; these rows are what may exist on chain.
import {
  CLOSED_LEG_STATUSES,
  type ForwardingLegStatus,
  formatUsdcFull,
  parseUsdc,
  type Usdc,
} from '@store/shared';
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { formatEther, type Hex } from 'viem';
import type { Database } from '../db/client.ts';
import { forwardingTransfers, paymentWallets, signedTransactions } from '../db/schema.ts';
import { uuidArray } from '../db/uuid.ts';
import type { ForwardingSummary } from '../webhooks/events.ts';
import { enqueueOrderEvents } from '../webhooks/outbox.ts';

/** A wallet row. */
export type WalletRow = typeof paymentWallets.$inferSelect;
/** A leg row. */
export type LegRow = typeof forwardingTransfers.$inferSelect;

/** A leg not closed yet (neither confirmed nor canceled): its round is open. */
export const openLeg = notInArray(forwardingTransfers.status, [...CLOSED_LEG_STATUSES]);

/** A wallet (as `pw`) still waiting for the rest of its amount: the underpaid phase. */
const UNDERPAID = sql`(pw.status = 'waiting' and pw.exception = 'underpaid')`;

/**
 * Wallets the forwarding loop must look at now: funds at depth that `isForwardable` lets go (the
 * same rule in SQL, so a wallet still waiting to be paid is not read on every pass), or a round a
 * crash left open; never one stopped for a person or waiting for its retry time. A reversed
 * wallet only to record legs already on their way, or once its window closed (what is left).
 * Note: one statement, without the wallets in `skip` (those the loop is forwarding already), so a
 * busy pass reads only the rows it can start.
 */
export async function loadWalletsWithWork(
  db: Database,
  now: Date,
  limit: number,
  skip: readonly string[] = [],
): Promise<WalletRow[]> {
  const at = now.toISOString();
  // Note: a wallet whose unforwarded funds are all held for the payer (an excess awaiting its
  // claim, an underpaid order refunded) is not listed until its refund is ready; an underpaid one
  // whose window closed only once its merchant accepted it as paid. A reversed wallet's open legs
  // are listed to be closed (recorded as paid, or cancelled).
  const w = paymentWallets;
  return db
    .select()
    .from(w)
    .where(sql`${w.id} in (
        select pw.id from payment_wallets pw
        where pw.forwarding_due and (pw.status = 'received'
          or (pw.status = 'reversed' and pw.expired_at <= ${at})
          or (${UNDERPAID} and pw.expired_at <= ${at} and exists (
            select 1 from orders o where o.id = pw.order_id and o.source in ('signed_link', 'unsigned_link')))
          or (pw.forwarded_amount_usdc > 0 and pw.status <> 'reversed' and not ${UNDERPAID})
          or (${UNDERPAID} and exists (select 1 from refunds r where r.wallet_id = pw.id
            and r.source = 'deposit' and r.reason = 'underpaid' and r.status <> 'canceled')))
          and pw.received_amount_usdc - pw.forwarded_amount_usdc > coalesce((select sum(r.amount)
            from refunds r where r.wallet_id = pw.id and r.source = 'deposit'
              and r.status in ('awaiting_address', 'ready', 'sending', 'failed')), 0) / 1000000
        union select wallet_id from refunds
          where status = 'ready' and source = 'deposit' and wallet_id is not null
        union select wallet_id from forwarding_transfers
          where status not in ('confirmed', 'canceled'))
      and ${w.forwardingStatus} <> 'failed'
      and (${w.status} <> 'reversed' or ${w.expiredAt} <= ${at}
        or ${w.id} in (select wallet_id from forwarding_transfers
          where status not in ('confirmed', 'canceled')))
      and (${w.forwardingNextAttemptAt} is null or ${w.forwardingNextAttemptAt} <= ${at})
      and not (${w.id} = any(${uuidArray(skip)}::uuid[]))`)
    .orderBy(sql`${w.paymentReceivedAt} nulls last`)
    .limit(limit);
}

/** One wallet as it is now; undefined when there is none. */
export async function loadWallet(db: Database, id: string): Promise<WalletRow | undefined> {
  const [wallet] = await db.select().from(paymentWallets).where(eq(paymentWallets.id, id));
  return wallet;
}

/** A wallet as it is now, with what forwarding needs of its legs. */
export interface WalletWork {
  wallet: WalletRow;
  /** The legs of the open round (`openRoundLegs`). */
  legs: LegRow[];
  /** The number of its last round (0 before the first). */
  lastRound: number;
}

/**
 * A wallet, its open round's legs and the number of its last round, in one statement (a pass
 * reads them all before it decides anything); undefined when there is no such wallet.
 */
export async function loadWalletWork(db: Database, id: string): Promise<WalletWork | undefined> {
  const rows = await db
    .select({
      wallet: paymentWallets,
      leg: forwardingTransfers,
      lastRound: sql<number | null>`(select max(f.round)::int from forwarding_transfers f
        where f.wallet_id = ${paymentWallets.id})`,
    })
    .from(paymentWallets)
    .leftJoin(
      forwardingTransfers,
      and(eq(forwardingTransfers.walletId, paymentWallets.id), openLeg),
    )
    .where(eq(paymentWallets.id, id))
    .orderBy(asc(forwardingTransfers.round), asc(forwardingTransfers.leg));
  const [first] = rows;
  if (!first) return undefined;
  return {
    wallet: first.wallet,
    legs: rows.flatMap((r) => (r.leg ? [r.leg] : [])),
    lastRound: first.lastRound ?? 0,
  };
}

/**
 * Notes where each leg was mined while the round waits for depth (what the merchant's forwarding
 * view shows); the round stays open, so a reorg that removes a leg is seen and sent again.
 */
export async function recordMinedLegs(db: Database, mined: readonly MinedLeg[]): Promise<void> {
  for (const m of mined) {
    // Note: a round waiting for depth is looked at on several passes; a leg noted already is not
    // written again.
    const { leg } = m;
    if (leg.status === 'mined' && leg.txHash === m.txHash && leg.blockNumber === `${m.blockNumber}`)
      continue;
    await db
      .update(forwardingTransfers)
      .set({ status: 'mined', txHash: m.txHash, blockNumber: m.blockNumber.toString() })
      .where(and(eq(forwardingTransfers.id, m.leg.id), openLeg));
  }
}

/**
 * Leaves the wallet alone until `at` (its round waits for depth, or a reversed wallet has nothing
 * to record): the loop does not ask the chain about it on every pass meanwhile.
 */
export async function deferForwarding(db: Database, walletId: string, at: Date): Promise<void> {
  await db
    .update(paymentWallets)
    .set({ forwardingNextAttemptAt: at })
    .where(eq(paymentWallets.id, walletId));
}

/** The legs of the round not yet recorded as complete (empty when none is open). */
export function openRoundLegs(db: Database, walletId: string): Promise<LegRow[]> {
  return db
    .select()
    .from(forwardingTransfers)
    .where(and(eq(forwardingTransfers.walletId, walletId), openLeg))
    .orderBy(asc(forwardingTransfers.round), asc(forwardingTransfers.leg));
}

/** A leg to insert. */
export interface NewLeg {
  leg: string;
  from: string;
  to: string;
  value: bigint;
  authorizationNonce?: `0x${string}`;
}

/**
 * Inserts legs of `round` before anything is signed (and, for the first legs of a round, marks
 * the wallet as forwarding), in one statement; undefined when another worker inserted the same
 * legs first.
 */
export async function insertLegs(
  db: Database,
  walletId: string,
  mode: string,
  round: number,
  legs: readonly NewLeg[],
): Promise<LegRow[] | undefined> {
  const inserted = db.$with('inserted').as(
    db
      .insert(forwardingTransfers)
      .values(
        legs.map((leg) => ({
          walletId,
          round,
          leg: leg.leg,
          mode,
          fromAddress: leg.from,
          toAddress: leg.to,
          value: leg.value.toString(),
          authorizationNonce: leg.authorizationNonce ?? null,
        })),
      )
      .onConflictDoNothing()
      .returning(),
  );
  // Note: the wallet is marked only when every leg went in (as one transaction would have it).
  const marked = db.$with('marked').as(
    db
      .update(paymentWallets)
      .set({ forwardingStatus: 'forwarding' })
      .where(
        and(
          eq(paymentWallets.id, walletId),
          sql`(select count(*) from ${inserted}) = ${legs.length}`,
        ),
      )
      .returning({ id: paymentWallets.id }),
  );
  const rows = await db.with(inserted, marked).select().from(inserted);
  if (rows.length !== legs.length) return undefined;
  // Note: in the order given (the order of the calls in the round's transaction).
  const order = legs.map((l) => l.leg);
  return rows.sort((a, b) => order.indexOf(a.leg) - order.indexOf(b.leg));
}

/**
 * The legs by id, for an update joined to a JSON set of rows: the planner then finds them by
 * their key, whatever it guesses of the set's size.
 */
function legByIdOf(legs: readonly { id: string }[]) {
  return inArray(
    forwardingTransfers.id,
    legs.map((leg) => leg.id),
  );
}

/** A leg a relayer transaction carries: what its record becomes when the transaction is saved. */
export interface LegTxSave {
  db: Database;
  id: string;
  status: ForwardingLegStatus;
  /** A new authorization the transaction carries, saved with it. */
  signed?: Pick<LegRow, 'signature' | 'validBefore'>;
}

/**
 * Records the signed transaction on every leg it carries, in one statement (all or none): its
 * bytes once (signed_transactions), on each leg its hash and nonce, the leg's status and any new
 * authorization.
 */
export async function saveLegTransactions(
  db: Database,
  legs: readonly LegTxSave[],
  tx: { raw: string; hash: string; nonce: number },
): Promise<void> {
  const rows = legs.map((leg) => ({
    id: leg.id,
    status: leg.status,
    signature: leg.signed?.signature ?? null,
    valid_before: leg.signed?.validBefore ?? null,
  }));
  await db.execute(sql`
    with kept as (
      insert into signed_transactions (hash, raw) values (${tx.hash}, ${tx.raw})
      on conflict (hash) do nothing)
    update forwarding_transfers set tx_hash = ${tx.hash}, tx_nonce = ${tx.nonce}, status = v.status,
      signature = coalesce(v.signature, forwarding_transfers.signature),
      valid_before = coalesce(v.valid_before, forwarding_transfers.valid_before)
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as v(id uuid, status text, signature text, valid_before numeric)
    where forwarding_transfers.id = v.id and ${legByIdOf(legs)}`);
}

/** The bytes of a signed transaction recorded on a leg (undefined when none is kept). */
export async function signedTransactionOf(
  db: Database,
  hash: string | null,
): Promise<Hex | undefined> {
  if (!hash) return undefined;
  const [row] = await db
    .select({ raw: signedTransactions.raw })
    .from(signedTransactions)
    .where(eq(signedTransactions.hash, hash));
  return row?.raw as Hex | undefined;
}

/** Days a signed transaction's bytes are kept after every leg on it closed (far past any reorg). */
export const SIGNED_TRANSACTION_KEEP_DAYS = 7;
/** Signed transactions deleted a statement. */
export const SIGNED_TRANSACTION_PRUNE_BATCH = 1000;

/**
 * Deletes the bytes of signed transactions that nothing will send again, at most `limit` a call
 * (oldest first); returns how many. A transaction goes once it was signed more than `keepDays`
 * ago and no leg on it is open or was confirmed within `keepDays` (reconciliation may reopen a
 * confirmed leg for a while after a deep reorg); one no leg holds any more (replaced by another)
 * goes by its age alone. Note: an EIP-3009 leg found open without its bytes would take a new
 * transaction under the same authorization (`recordedTxOnItsWay`), which the token lets pay once;
 * a gas-funded leg is never reopened once its round is recorded.
 */
export async function pruneSignedTransactions(
  db: Database,
  keepDays = SIGNED_TRANSACTION_KEEP_DAYS,
  limit = SIGNED_TRANSACTION_PRUNE_BATCH,
): Promise<number> {
  const cutoff = sql`now() - make_interval(days => ${keepDays})`;
  const deleted = await db.execute<{ hash: string }>(sql`
    delete from signed_transactions s
    where s.hash in (
      select old.hash from signed_transactions old
      where old.created_at < ${cutoff}
        and not exists (
          select from forwarding_transfers
          where forwarding_transfers.tx_hash = old.hash
            and (${openLeg} or forwarding_transfers.confirmed_at >= ${cutoff}))
      order by old.created_at
      limit ${limit})
    returning s.hash`);
  return deleted.length;
}

/** What the chain says about a leg once its transaction is mined. */
export interface MinedLeg {
  leg: LegRow;
  txHash: `0x${string}`;
  blockNumber: bigint;
  /** gasUsed × effectiveGasPrice (+ the L1 fee on Base), in wei. */
  gasCostWei: bigint;
}

/**
 * Records a complete round in one transaction: its legs confirmed, the wallet's forwarded amount,
 * gas and forwarding status, and the `order.forwarded` webhook (whether the order then reads as
 * forwarded is derived: payments/forwarded.ts). False when another worker recorded it first.
 * Note: conditional on the forwarded amount read before, so a round is never counted twice.
 */
export async function completeRound(
  db: Database,
  wallet: WalletRow,
  mined: readonly MinedLeg[],
  now: Date,
): Promise<boolean> {
  const usdcLegs = mined.filter((m) => m.leg.leg !== 'gas');
  const amount: Usdc = usdcLegs.reduce((sum, m) => sum + BigInt(m.leg.value), 0n);
  const gasCost = mined.reduce((sum, m) => sum + m.gasCostWei, 0n);
  const gasLeg = mined.find((m) => m.leg.leg === 'gas');
  const forwarded = parseUsdc(wallet.forwardedAmountUsdc);
  const after = forwarded + amount;
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(paymentWallets)
      .set({
        forwardedAmountUsdc: formatUsdcFull(after),
        actualGasUsed: sql`${paymentWallets.actualGasUsed} + ${formatEther(gasCost)}::numeric`,
        forwardingStatus: 'completed',
        forwardingError: null,
        forwardingNextAttemptAt: null,
        forwardedAt: now,
        ...(gasLeg
          ? {
              gasFunded: true,
              gasAmountSent: sql`${paymentWallets.gasAmountSent} + ${formatEther(BigInt(gasLeg.leg.value))}::numeric`,
            }
          : {}),
      })
      .where(
        and(
          eq(paymentWallets.id, wallet.id),
          eq(paymentWallets.forwardedAmountUsdc, wallet.forwardedAmountUsdc),
        ),
      )
      .returning({ id: paymentWallets.id });
    if (updated.length === 0) return false;
    // Note: every leg in one statement.
    const confirmed = mined.map((m) => ({
      id: m.leg.id,
      tx_hash: m.txHash,
      block_number: m.blockNumber.toString(),
      gas_cost_wei: m.gasCostWei.toString(),
    }));
    // Note: the legs and the webhook (read from the wallet updated above, and from `mined`) do not
    // depend on each other: sent together, one round trip.
    await Promise.all([
      tx.execute(sql`
        update forwarding_transfers set status = 'confirmed', tx_hash = v.tx_hash,
          block_number = v.block_number, gas_cost_wei = v.gas_cost_wei,
          confirmed_at = ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(confirmed)}::jsonb)
          as v(id uuid, tx_hash text, block_number numeric, gas_cost_wei numeric)
        where forwarding_transfers.id = v.id and ${legByIdOf(mined.map((m) => m.leg))}`),
      enqueueOrderEvents(
        tx,
        wallet.id,
        ['order.forwarded'],
        now,
        summaryOf(wallet, mined, amount, now),
      ),
    ]);
    return true;
  });
}

function summaryOf(
  wallet: WalletRow,
  mined: readonly MinedLeg[],
  amount: Usdc,
  now: Date,
): ForwardingSummary {
  const merchant = mined.find((m) => m.leg.leg === 'merchant');
  const fee = mined.find((m) => m.leg.leg === 'fee');
  return {
    round: mined[0]?.leg.round ?? 1,
    amount: formatUsdcFull(amount),
    merchantAmount: formatUsdcFull(BigInt(merchant?.leg.value ?? 0)),
    feeAmount: formatUsdcFull(BigInt(fee?.leg.value ?? 0)),
    merchantAddress: wallet.storePaymentAddress,
    merchantTxHash: merchant?.txHash ?? null,
    feeTxHash: fee?.txHash ?? null,
    forwardedAt: now.toISOString(),
  };
}

/**
 * Records a wait that is no failure (not counted): the reason kept for the merchant, the next look
 * at `nextAttemptAt`. Conditional on the forwarded amount read before, as `recordFailure`.
 */
export async function recordWait(
  db: Database,
  wallet: Pick<WalletRow, 'id' | 'forwardedAmountUsdc'>,
  reason: string,
  nextAttemptAt: Date,
): Promise<void> {
  await db
    .update(paymentWallets)
    .set({ forwardingError: reason.slice(0, 1000), forwardingNextAttemptAt: nextAttemptAt })
    .where(
      and(
        eq(paymentWallets.id, wallet.id),
        eq(paymentWallets.forwardedAmountUsdc, wallet.forwardedAmountUsdc),
      ),
    );
}

/**
 * Records a failed attempt: counted, the error kept for the merchant, the next try scheduled.
 * Note: only while the wallet's forwarded amount is still the one the attempt read: a worker
 * that raced another one (which completed the round) must not mark a finished wallet failed.
 */
export async function recordFailure(
  db: Database,
  wallet: Pick<WalletRow, 'id' | 'forwardedAmountUsdc'>,
  error: string,
  stop: boolean,
  nextAttemptAt: Date,
): Promise<void> {
  await db
    .update(paymentWallets)
    .set({
      forwardingRetryCount: sql`${paymentWallets.forwardingRetryCount} + 1`,
      forwardingStatus: stop ? 'failed' : 'retrying',
      forwardingError: error.slice(0, 1000),
      forwardingNextAttemptAt: nextAttemptAt,
    })
    .where(
      and(
        eq(paymentWallets.id, wallet.id),
        eq(paymentWallets.forwardedAmountUsdc, wallet.forwardedAmountUsdc),
      ),
    );
}
