// One detection pass: the wallets that may have changed, their transfers in ONE query, the pure
// state machine on each, and a write for each wallet whose state or amounts moved.
// Note: the cost of a pass follows the chain's new transfers, not the number of open wallets:
// candidates are the wallets that new transfer rows touch (found through the indexer's primary
// key, which sorts in chain order), those still below depth and those whose window just closed.
// A full pass over every unpaid wallet runs at start and every `reconcileMs`, which also catches
// rows a reorg re-inserted behind the cursor.
import { isPaymentException, isPaymentState, nextPaymentState, parseUsdc } from '@store/shared';
import { type SQL, sql } from 'drizzle-orm';
import { indexedTransfer, readIndexerPosition } from '../chain/indexer.ts';
import type { Database } from '../db/client.ts';
import { uuidArray } from '../db/uuid.ts';
import { inParallel } from '../loops/in-parallel.ts';
import { type TransferRow, toDepositTransfer } from './indexed-transfers.ts';
import { MAX_CHANGES_TOGETHER, recordWalletChanges, type WalletChange } from './record.ts';

/** Settings of the detection passes. */
export interface DetectionSettings {
  chainId: number;
  confirmations: number;
  /** How long after its window an unpaid wallet stays in the full pass (7 days by default). */
  graceMs?: number;
  /**
   * Whether the shopper's payment transaction is still on the chain (a successful receipt).
   * Note: asked before a paid wallet is reversed: an indexer that restarted drops its latest rows
   * until it has indexed them again, which must not read as a reorg. Without it, the indexer's
   * rows alone decide.
   */
  paymentStillOnChain?: (txHash: string) => Promise<boolean>;
}

/** Default of `DetectionSettings.graceMs`. */
export const DETECTION_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

/** Where the previous pass stopped; null before the first (which then reconciles everything). */
export interface DetectionCursor {
  lastTransferId: string | null;
}

/** What one pass did. */
export interface DetectionResult {
  cursor: DetectionCursor;
  headBlock: bigint | null;
  candidates: number;
  changes: WalletChange[];
}

type WalletRow = Partial<TransferRow> & {
  id: string;
  order_id: string;
  status: string;
  exception: string;
  expected: string;
  expires_at_ms: string | null;
  detected: string;
  received: string;
  deposit_tx_hash: string | null;
  declined: boolean;
};

/**
 * The amount a declined payment is held to: never reached. Note: an underpaid order its merchant
 * refunded is decided; what arrives later is the payer's, never this order's payment.
 */
const NEVER_COMPLETE = 2n ** 255n;

const UNPAID = sql`('waiting', 'detected', 'expired')`;

/**
 * Ids of the wallets this pass must look at.
 * Note: the full pass reads unpaid wallets only until `graceMs` after their window closed, so
 * abandoned ones (anyone can create them) leave it. A late payment to an older one is still seen:
 * by the incremental pass, which finds wallets through new transfer rows whatever their age; by
 * the full pass for `graceMs` after any change of state (a late payment a reorg removed may come
 * back behind the cursor); and by the first pass of a process, which also reads the older ones
 * whose indexed transfers differ from what they have seen (paid while no worker ran).
 */
function candidateWallets(
  cursor: DetectionCursor,
  upTo: string,
  now: Date,
  full: boolean,
  graceMs: number,
): SQL {
  const belowDepth = sql`select id from payment_wallets where awaiting_depth`;
  const differsFromIndexer = sql`w.detected_amount_usdc * 1000000 <> coalesce((
    select sum(t.value) from ${indexedTransfer} t
    where t."to" = lower(w.wallet_address)), 0)`;
  if (full || cursor.lastTransferId === null) {
    const cutoff = new Date(now.getTime() - graceMs).toISOString();
    const recent = sql`
      select id from payment_wallets where status = 'waiting'
      union select id from payment_wallets where status in ${UNPAID}
        and (expired_at > ${cutoff} or expired_at is null)
      union select wallet_id from payment_events where created_at > ${cutoff}`;
    const missedWhileStopped =
      cursor.lastTransferId === null
        ? sql`union select w.id from payment_wallets w
            where w.status in ${UNPAID} and w.expired_at <= ${cutoff} and ${differsFromIndexer}`
        : sql``;
    // Note: paid wallets too, when the indexer holds more than they have seen: a top-up indexed
    // while the worker was down (or a reorg behind the cursor) would otherwise never be seen,
    // and so never forwarded.
    const paidWithNewTransfers = sql`
      select w.id from payment_wallets w
      where w.status not in ${UNPAID} and ${differsFromIndexer}`;
    return sql`${recent} ${missedWhileStopped}
      union ${belowDepth} union ${paidWithNewTransfers}`;
  }
  return sql`
    select w.id from payment_wallets w
      where lower(w.wallet_address) in (
        select distinct "to" from ${indexedTransfer}
        where id > ${cursor.lastTransferId} and id <= ${upTo})
    union ${belowDepth}
    union select id from payment_wallets
      where status = 'waiting' and expired_at <= ${now.toISOString()}`;
}

/** Groups of wallet changes recorded at the same time (each holds one of the worker's connections). */
const GROUPS_AT_ONCE = 4;

/** Reversals checked against the chain at the same time. */
const CHAIN_ASKS_AT_ONCE = 8;

/** Runs one pass at `now`; `full` forces a reconciliation of every unpaid wallet. */
export async function runDetectionPass(
  db: Database,
  settings: DetectionSettings,
  cursor: DetectionCursor,
  now: Date,
  full = false,
): Promise<DetectionResult> {
  const { headBlock, lastTransferId } = await readIndexerPosition(db, settings.chainId);
  if (headBlock === null) return { cursor, headBlock, candidates: 0, changes: [] };
  const upTo = lastTransferId ?? '';
  const graceMs = settings.graceMs ?? DETECTION_GRACE_MS;
  // Note: the candidates are read first, and the wallets with their transfers by id after: in one
  // statement, Postgres could not know how few they are and joined every wallet to every indexed
  // transfer on each pass.
  const ids = (
    await db.execute<{ id: string }>(candidateWallets(cursor, upTo, now, full, graceMs))
  ).map((r) => r.id);
  const rows =
    ids.length === 0
      ? []
      : await db.execute<WalletRow>(sql`
    select w.id, w.order_id, w.status, w.exception,
      coalesce(w.accepted_amount_usdc, w.expected_amount_usdc)::text as expected,
      floor(extract(epoch from w.expired_at) * 1000)::bigint::text as expires_at_ms,
      w.detected_amount_usdc::text as detected,
      w.received_amount_usdc::text as received, w.deposit_tx_hash,
      exists (select 1 from refunds r where r.wallet_id = w.id and r.source = 'deposit'
        and r.reason = 'underpaid' and r.status <> 'canceled') as declined,
      t.value::text, t.block_number::text, t.block_timestamp::text, t.tx_hash
    from payment_wallets w
    left join ${indexedTransfer} t on t."to" = lower(w.wallet_address)
    where w.id = any(${uuidArray(ids)}::uuid[])
    order by w.id, t.block_number, t.log_index`);

  const found: WalletChange[] = [];
  for (const group of groupByWallet(rows)) {
    const change = walletChange(group, headBlock, now, settings);
    if (change) found.push(change);
  }
  // Note: the changes of a pass are recorded together, up to MAX_CHANGES_TOGETHER a transaction
  // (see recordWalletChanges: a group that fails is recorded change by change); a failure fails the
  // pass after the others were recorded, and the next pass reads what is left from the rows again.
  // Note: a reversal the chain could not be asked about waits for the next pass; the others go on.
  let unasked: unknown;
  const forgot = await inParallel(found, CHAIN_ASKS_AT_ONCE, (change) =>
    indexerOnlyForgot(change, settings).catch((error: unknown) => {
      unasked ??= error;
      return true;
    }),
  );
  const recordable = found.filter((_, i) => !forgot[i]);
  const groups: WalletChange[][] = [];
  for (let i = 0; i < recordable.length; i += MAX_CHANGES_TOGETHER)
    groups.push(recordable.slice(i, i + MAX_CHANGES_TOGETHER));
  const stored = new Set(
    (
      await inParallel(groups, GROUPS_AT_ONCE, async (group) => {
        const written = await recordWalletChanges(db, group, now);
        return group.filter((_, i) => written[i]);
      })
    ).flat(),
  );
  if (unasked !== undefined) throw unasked;
  const recorded = found.map((change) => stored.has(change));
  const changes = found.filter((_, i) => recorded[i]);
  // Note: '' once the pass has run, so an empty transfer table does not mean "full pass" again.
  const next = lastTransferId ?? cursor.lastTransferId ?? '';
  return { cursor: { lastTransferId: next }, headBlock, candidates: countWallets(rows), changes };
}

/** True when a reversal is only the indexer's gap: the payment transaction is still on chain. */
async function indexerOnlyForgot(
  change: WalletChange,
  settings: DetectionSettings,
): Promise<boolean> {
  const reversing = change.after.state === 'reversed' && change.before.state !== 'reversed';
  const tx = change.before.paymentTxHash;
  if (!reversing || !tx || !settings.paymentStillOnChain) return false;
  return settings.paymentStillOnChain(tx);
}

/** The state machine on one wallet's rows; undefined for a state this version does not know. */
function walletChange(
  group: readonly WalletRow[],
  headBlock: bigint,
  now: Date,
  settings: DetectionSettings,
): WalletChange | undefined {
  const wallet = group[0];
  // Note: a state of a later version (or a hand-edited row) is left alone, never overwritten.
  if (!wallet || !isPaymentState(wallet.status) || !isPaymentException(wallet.exception))
    return undefined;
  const transfers = group
    .filter((row) => row.value != null)
    .map((row) => toDepositTransfer(row as TransferRow));
  const expiresAt = wallet.expires_at_ms ? Number(wallet.expires_at_ms) : Number.POSITIVE_INFINITY;
  const after = nextPaymentState(
    {
      state: wallet.status,
      exception: wallet.exception,
      expected: wallet.declined ? NEVER_COMPLETE : parseUsdc(wallet.expected),
      expiresAt,
    },
    { transfers, headBlock },
    now.getTime(),
    settings,
  );
  const before = {
    state: wallet.status,
    exception: wallet.exception,
    detected: parseUsdc(wallet.detected),
    received: parseUsdc(wallet.received),
    paymentTxHash: wallet.deposit_tx_hash,
  };
  return { walletId: wallet.id, orderId: wallet.order_id, before, after, headBlock };
}

function* groupByWallet(rows: readonly WalletRow[]): Generator<WalletRow[]> {
  let group: WalletRow[] = [];
  for (const row of rows) {
    if (group.length > 0 && group[0]?.id !== row.id) {
      yield group;
      group = [];
    }
    group.push(row);
  }
  if (group.length > 0) yield group;
}

function countWallets(rows: readonly WalletRow[]): number {
  return new Set(rows.map((r) => r.id)).size;
}
