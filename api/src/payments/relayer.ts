// The platform relayer as a managed resource: which failures are its trouble rather than an
// order's (classified by viem's error classes and the node's own text in `details`), the gaps and
// stuck transactions in its nonces (filled, rebroadcast or replaced with higher fees, from what the
// chain and the legs table say), and its health (balance, waiting wallets, forwarding lag) with an
// alert line logged once per crossing.
import { and, eq, gte, inArray, or, sql } from 'drizzle-orm';
import {
  BaseError,
  FeeCapTooLowError,
  formatEther,
  formatGwei,
  type Hash,
  type Hex,
  HttpRequestError,
  InsufficientFundsError,
  IntrinsicGasTooLowError,
  keccak256,
  NonceTooHighError,
  NonceTooLowError,
  type PublicClient,
  parseTransaction,
  RpcRequestError,
  TimeoutError,
  TipAboveFeeCapError,
  TransactionTypeNotSupportedError,
  WaitForTransactionReceiptTimeoutError,
} from 'viem';
import type { Database } from '../db/client.ts';
import { forwardingTransfers, paymentWallets, signedTransactions } from '../db/schema.ts';
import { startWakeableLoop, type WakeableLoop } from '../loops/wakeable-loop.ts';
import { type ForwardingChain, MAX_GROUP_SENDS, type SignedTx } from './forwarding-context.ts';

/** The wallet status of a forwarding that waits for the relayer (never counted, never failed). */
export const WAITING_RELAYER = 'waiting_relayer';
/** Prefix of such a wallet's `forwarding_error`. */
export const WAITING_RELAYER_PREFIX = 'waiting for relayer: ';

// ---------------------------------------------------------------------------------------------
// Which failures are the relayer's

/** Errors in the cause chain that are each a node's own answer about the relayer's transaction. */
const RELAYER_CLASSES = [
  [InsufficientFundsError, 'the relayer is out of ETH for gas'],
  [NonceTooLowError, 'its nonce was already used (nonce race)'],
  [NonceTooHighError, 'its nonce is ahead of the chain (nonce gap)'],
  [FeeCapTooLowError, 'its fee is below the base fee (fee spike)'],
  [TipAboveFeeCapError, 'its priority fee is above its fee cap'],
  [IntrinsicGasTooLowError, 'its gas limit is too low'],
  [TransactionTypeNotSupportedError, 'the node refuses its transaction type'],
] as const;

/**
 * Node texts with no viem class (or whose class is too coarse: viem files "already known" under
 * NonceTooLowError), matched against the lowercased `details` of each error in the chain.
 */
const RELAYER_TEXTS: readonly (readonly [RegExp, string])[] = [
  [/already known|already imported|known transaction/, 'the node already has its transaction'],
  [/replacement transaction underpriced|replacement fee too low/, 'a replacement was underpriced'],
  [/transaction underpriced|underpriced/, 'its transaction was underpriced'],
  [InsufficientFundsError.nodeMessage, 'the relayer is out of ETH for gas'],
  [NonceTooLowError.nodeMessage, 'its nonce was already used (nonce race)'],
  [NonceTooHighError.nodeMessage, 'its nonce is ahead of the chain (nonce gap)'],
  [FeeCapTooLowError.nodeMessage, 'its fee is below the base fee (fee spike)'],
  [
    /txpool is full|pool is full|exceeds the configured cap|fee cap .* exceeds/,
    'the pool refuses it',
  ],
];

/** The node texts of every error in the chain (`details`), lowercased. */
function detailsOf(error: BaseError): string[] {
  const texts: string[] = [];
  error.walk((e) => {
    const details = (e as { details?: unknown }).details;
    if (typeof details === 'string' && details) texts.push(details.toLowerCase());
    return false;
  });
  return texts;
}

/**
 * Why `error` is the relayer's trouble (out of ETH, a nonce race or gap, an underpriced or
 * replaced transaction, a fee spike, a transaction not mined in time) rather than the order's;
 * undefined for anything else. Every order would fail alike, so these never count toward the
 * attempts that stop an order: it waits for the relayer instead.
 */
export function relayerTrouble(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const texts = detailsOf(error);
  const detail = texts[0] ? ` (${texts[0].slice(0, 120)})` : '';
  // Note: the node texts first: viem classes "already known" as NonceTooLowError.
  for (const [pattern, reason] of RELAYER_TEXTS.slice(0, 3)) {
    if (texts.some((t) => pattern.test(t))) return `${reason}${detail}`;
  }
  for (const [type, reason] of RELAYER_CLASSES) {
    if (error.walk((e) => e instanceof type)) return `${reason}${detail}`;
  }
  if (error.walk((e) => e instanceof WaitForTransactionReceiptTimeoutError))
    return 'its transaction was not mined in time';
  for (const [pattern, reason] of RELAYER_TEXTS.slice(3)) {
    if (texts.some((t) => pattern.test(t))) return `${reason}${detail}`;
  }
  return undefined;
}

/** True when the node answered that it already holds the transaction. */
export function isAlreadyKnown(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    detailsOf(error).some((t) => /already known|already imported|known transaction/.test(t))
  );
}

/**
 * True when the node answered with an error (it refused the transaction), as opposed to no
 * answer at all (a timeout, a dropped connection: the transaction may have reached it).
 */
export function nodeRefused(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  if (error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError)) return false;
  return Boolean(error.walk((e) => e instanceof RpcRequestError));
}

// ---------------------------------------------------------------------------------------------
// Settings

/** How the relayer is looked after (RELAYER_* and FORWARDING_LAG_ALERT_S of the worker). */
export interface RelayerSettings {
  /** A relayer transaction held in the pool this long is replaced with higher fees. */
  stuckAfterMs: number;
  /** A missing nonce with later transactions waiting behind it is filled after this long. */
  gapAfterMs: number;
  /** Time between two looks at the relayer. */
  checkIntervalMs: number;
  /** Fee increase of a replacement, in percent (nodes want 10% or more). */
  bumpPercent: number;
  /** Longest wait between two attempts of a wallet waiting for the relayer. */
  maxWaitMs: number;
  /** Forwards the balance must pay for at the current gas price, or it alerts. */
  minForwards: number;
  /** Oldest paid order not forwarded after this many seconds: alert. */
  lagAlertS: number;
}

/** The defaults (production). */
export const RELAYER_DEFAULTS: RelayerSettings = {
  stuckAfterMs: 30_000,
  gapAfterMs: 5_000,
  checkIntervalMs: 1_000,
  bumpPercent: 25,
  maxWaitMs: 10_000,
  minForwards: 50,
  lagAlertS: 120,
};

/** Gas of one forward (two EIP-3009 transfers, with margin) for the balance threshold. */
export const FORWARD_GAS = 110_000n;

// ---------------------------------------------------------------------------------------------
// Nonces: gaps, lost and stuck transactions

/** A relayer transaction that may be in the node's pool: a leg's, or a gap filler's. */
interface Outstanding {
  nonce: number;
  raw: Hex;
  hash: Hash;
  /** The leg that recorded it (none for a filler). */
  leg?: { id: string; mode: string; from: string; authorizationNonce: string | null };
}

/** Nonces looked at past the chain's next one in one pass. */
const MAX_SCAN = 64;
/** A replacement is not bumped again while its fee cap is this many times the current one. */
const MAX_FEE_OVER_MARKET = 3n;

const relayerLegs = or(eq(forwardingTransfers.mode, 'eip3009'), eq(forwardingTransfers.leg, 'gas'));

/**
 * Looks after the relayer's nonces, from the chain's view (`latest`, `pending`, the pool) and the
 * legs table (every relayer transaction is recorded there before it is broadcast):
 * - a recorded transaction the node no longer holds, at a nonce still free, goes out again
 *   (the same bytes; re-signed with current fees when the node finds it underpriced);
 * - a nonce nobody holds while later transactions wait behind it is filled, after `gapAfterMs`,
 *   with a 0-value self-transfer;
 * - a transaction held in the pool longer than `stuckAfterMs` is replaced at the same nonce with
 *   fees raised by `bumpPercent` (at least the current estimate).
 * A lost leg transaction goes out again only if `mayResend` lets it (its payment is still there:
 * after a reorg took the payment away it would only revert); a nonce is filled only while a later
 * transaction waits behind it.
 * Runs under the relayer's nonce lock, so it never races the worker's own sends.
 */
export class RelayerManager {
  private readonly seen = new Map<Hash, number>();
  private readonly holes = new Map<number, number>();
  private readonly fillers = new Map<number, Outstanding>();
  private lastSent: number | undefined;

  constructor(
    readonly chain: ForwardingChain,
    readonly db: Database,
    readonly settings: RelayerSettings,
    private readonly log: (line: string) => void,
    private readonly mayResend: (legId: string) => Promise<boolean> = async () => true,
  ) {}

  /** Records a transaction just broadcast (its time in the pool starts now). */
  noteSent(tx: SignedTx): void {
    this.seen.set(tx.hash, Date.now());
    if (this.lastSent === undefined || tx.nonce > this.lastSent) this.lastSent = tx.nonce;
  }

  /**
   * The nonce of a new relayer transaction: the chain's `pending` count. When it is at or below
   * a nonce this process sent, the node lost something: recorded transactions go out again
   * first, so a new one does not take a nonce a recorded one still holds. Call under the lock.
   */
  async nextNonce(): Promise<number> {
    const address = this.chain.relayer.address;
    const pending = await this.chain.client.getTransactionCount({ address, blockTag: 'pending' });
    if (this.lastSent === undefined || pending > this.lastSent) return pending;
    await this.tendLocked({ fillHoles: false, bump: false });
    return this.chain.client.getTransactionCount({ address, blockTag: 'pending' });
  }

  /** One look at the relayer's outstanding transactions (see the class). */
  tend(): Promise<void> {
    return this.chain.relayerLock.run(() => this.tendLocked({ fillHoles: true, bump: true }));
  }

  private async tendLocked(options: { fillHoles: boolean; bump: boolean }): Promise<void> {
    const { client, relayer } = this.chain;
    const latest = await client.getTransactionCount({ address: relayer.address });
    const outstanding = await this.outstanding(latest);
    if (outstanding.length === 0) {
      this.holes.clear();
      return;
    }
    const byNonce = new Map<number, Outstanding[]>();
    for (const tx of outstanding) byNonce.set(tx.nonce, [...(byNonce.get(tx.nonce) ?? []), tx]);
    const top = Math.min(Math.max(...byNonce.keys()), latest + MAX_SCAN);
    const holes: number[] = [];
    let waited = latest - 1;
    for (let nonce = latest; nonce <= top; nonce++) {
      // Note: a batch is one transaction recorded on every leg it carries: looked at once.
      const all = byNonce.get(nonce) ?? [];
      const txs = all.filter((tx, i) => all.findIndex((t) => t.hash === tx.hash) === i);
      let held: Outstanding | undefined;
      for (const tx of txs) {
        if (await this.nodeHolds(tx.hash)) {
          held = tx;
          break;
        }
      }
      if (held) {
        this.holes.delete(nonce);
        waited = nonce;
        if (options.bump) await this.bumpIfStuck(held);
        continue;
      }
      let resent = false;
      for (const tx of txs) {
        if (
          await this.resend(
            tx,
            all.filter((t) => t.hash === tx.hash),
          )
        ) {
          resent = true;
          break;
        }
      }
      if (resent) {
        this.holes.delete(nonce);
        waited = nonce;
      } else holes.push(nonce);
    }
    // Note: only nonces with a transaction waiting behind them are filled.
    for (const nonce of holes) {
      if (nonce > waited) this.holes.delete(nonce);
      else if (options.fillHoles) await this.fillHole(nonce);
    }
  }

  /** Recorded relayer transactions at `latest` or above, and this process's gap fillers. */
  private async outstanding(latest: number): Promise<Outstanding[]> {
    const rows = await this.db
      .select({
        id: forwardingTransfers.id,
        mode: forwardingTransfers.mode,
        from: forwardingTransfers.fromAddress,
        authorizationNonce: forwardingTransfers.authorizationNonce,
        raw: signedTransactions.raw,
        hash: forwardingTransfers.txHash,
        nonce: forwardingTransfers.txNonce,
      })
      .from(forwardingTransfers)
      .innerJoin(signedTransactions, eq(signedTransactions.hash, forwardingTransfers.txHash))
      .where(
        and(
          // Note: 'mined' too: a leg whose block a reorg removed holds its nonce until sent again;
          // 'canceling': the transaction that cancels a leg's authorization.
          inArray(forwardingTransfers.status, ['sent', 'mined', 'canceling']),
          gte(forwardingTransfers.txNonce, latest),
          relayerLegs,
        ),
      )
      .orderBy(forwardingTransfers.txNonce, forwardingTransfers.createdAt)
      .limit(MAX_SCAN * 2 * MAX_GROUP_SENDS);
    for (const [nonce] of this.fillers) if (nonce < latest) this.fillers.delete(nonce);
    for (const [nonce] of this.holes) if (nonce < latest) this.holes.delete(nonce);
    const legs: Outstanding[] = rows.flatMap((r) =>
      r.raw && r.hash && r.nonce !== null
        ? [
            {
              nonce: r.nonce,
              raw: r.raw as Hex,
              hash: r.hash as Hash,
              leg: {
                id: r.id,
                mode: r.mode,
                from: r.from,
                authorizationNonce: r.authorizationNonce,
              },
            },
          ]
        : [],
    );
    const all = [...legs, ...this.fillers.values()];
    const known = new Set(all.map((tx) => tx.hash));
    for (const hash of this.seen.keys()) if (!known.has(hash)) this.seen.delete(hash);
    return all;
  }

  private seenAt(tx: Outstanding): number {
    return this.seen.get(tx.hash) ?? Date.now();
  }

  /** True while the node has `hash` (in its pool, or mined). */
  private async nodeHolds(hash: Hash): Promise<boolean> {
    const tx = await this.chain.client.getTransaction({ hash }).catch(() => null);
    return tx !== null;
  }

  /**
   * Sends a lost recorded transaction again, unless it would only revert; true when its nonce is
   * taken care of. `carried`: every leg that recorded it (a batch carries many).
   * Note: a transaction whose every authorization another transaction used would only revert; a
   * batch goes again only if every leg it carries may go (each leg's own pass sends it otherwise).
   */
  private async resend(tx: Outstanding, carried: readonly Outstanding[] = [tx]): Promise<boolean> {
    let unused = 0;
    for (const one of carried) {
      if (one.leg?.mode !== 'eip3009' || !one.leg.authorizationNonce) {
        unused++;
        continue;
      }
      const used = await this.chain.client.readContract({
        address: this.chain.token,
        abi: authorizationStateAbi,
        functionName: 'authorizationState',
        args: [one.leg.from as Hex, one.leg.authorizationNonce as Hex],
      });
      if (!used) unused++;
    }
    if (unused === 0) return false;
    for (const one of carried) if (one.leg && !(await this.mayResend(one.leg.id))) return false;
    try {
      await this.chain.client.sendRawTransaction({ serializedTransaction: tx.raw });
      this.seen.set(tx.hash, Date.now());
      this.log(`relayer: nonce ${tx.nonce} was lost by the node; sent ${tx.hash} again`);
      return true;
    } catch (error) {
      if (isAlreadyKnown(error)) return true;
      const reason = relayerTrouble(error);
      if (error instanceof BaseError && error.walk((e) => e instanceof NonceTooLowError))
        return true; // mined meanwhile
      if (reason && /underpriced|base fee/.test(reason)) return this.replace(tx, 'underpriced');
      if (reason) throw error;
      this.log(`relayer: could not send nonce ${tx.nonce} again: ${messageOf(error)}`);
      return false;
    }
  }

  /** Replaces a transaction held in the pool longer than `stuckAfterMs`. */
  private async bumpIfStuck(tx: Outstanding): Promise<void> {
    const since = this.seenAt(tx);
    this.seen.set(tx.hash, since);
    if (Date.now() - since < this.settings.stuckAfterMs) return;
    const mined = await this.chain.client.getTransaction({ hash: tx.hash }).catch(() => null);
    if (!mined || mined.blockNumber !== null) return;
    await this.replace(tx, `stuck in the pool for ${Math.round((Date.now() - since) / 1000)} s`);
  }

  /**
   * Signs the same transaction at the same nonce with fees raised by `bumpPercent` (at least the
   * current estimate), records it on its leg (only if the leg still holds the old one), then
   * broadcasts it; a refused replacement puts the old record back. True when it went out.
   */
  private async replace(tx: Outstanding, why: string): Promise<boolean> {
    const { client, relayer, chainId } = this.chain;
    const old = parseTransaction(tx.raw);
    const market = await client.estimateFeesPerGas();
    const oldFee = old.maxFeePerGas ?? old.gasPrice ?? 0n;
    const oldTip = old.maxPriorityFeePerGas ?? 0n;
    if (why !== 'underpriced' && oldFee >= market.maxFeePerGas * MAX_FEE_OVER_MARKET) {
      this.log(`relayer: nonce ${tx.nonce} ${why}, its fee already ${formatGwei(oldFee)} gwei`);
      this.seen.set(tx.hash, Date.now());
      return false;
    }
    const raise = (value: bigint) => (value * BigInt(100 + this.settings.bumpPercent) + 99n) / 100n;
    const maxFeePerGas = max(raise(oldFee), market.maxFeePerGas);
    const tip = max(raise(oldTip), market.maxPriorityFeePerGas);
    const raw = await relayer.signTransaction({
      type: 'eip1559',
      chainId,
      to: old.to ?? undefined,
      data: old.data,
      value: old.value,
      gas: old.gas,
      nonce: tx.nonce,
      maxFeePerGas,
      maxPriorityFeePerGas: min(tip, maxFeePerGas),
      accessList: old.accessList,
    });
    const next: Outstanding = { ...tx, raw, hash: keccak256(raw) };
    if (tx.leg && !(await this.swapRecord(tx, next))) return false;
    try {
      await client.sendRawTransaction({ serializedTransaction: raw });
    } catch (error) {
      if (tx.leg) await this.swapRecord(next, tx);
      if (!isAlreadyKnown(error))
        this.log(`relayer: replacement at nonce ${tx.nonce} refused: ${messageOf(error)}`);
      return false;
    }
    if (!tx.leg) this.fillers.set(tx.nonce, next);
    this.seen.set(next.hash, Date.now());
    this.log(
      `relayer: nonce ${tx.nonce} ${why}: replaced ${tx.hash} by ${next.hash} ` +
        `(fee cap ${formatGwei(oldFee)} -> ${formatGwei(maxFeePerGas)} gwei)`,
    );
    return true;
  }

  /**
   * Moves the record of every leg that still holds `from` (one, or all that a batch carries) to
   * another signed transaction; false when none holds it any more.
   */
  private async swapRecord(from: Outstanding, to: Outstanding): Promise<boolean> {
    // Note: the new bytes are kept in the statement that moves the legs to them (all or none).
    const updated = await this.db.execute<{ id: string }>(sql`
      with kept as (
        insert into signed_transactions (hash, raw) values (${to.hash}, ${to.raw})
        on conflict (hash) do nothing)
      update forwarding_transfers set tx_hash = ${to.hash}
      where tx_hash = ${from.hash}
      returning id`);
    return updated.length > 0;
  }

  /** A nonce nobody holds while later transactions wait: a 0-value self-transfer fills it. */
  private async fillHole(nonce: number): Promise<void> {
    const since = this.holes.get(nonce) ?? Date.now();
    this.holes.set(nonce, since);
    if (Date.now() - since < this.settings.gapAfterMs) return;
    const { client, relayer, chainId } = this.chain;
    const fees = await client.estimateFeesPerGas();
    const raw = await relayer.signTransaction({
      type: 'eip1559',
      chainId,
      to: relayer.address,
      value: 0n,
      gas: 21_000n,
      nonce,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const filler: Outstanding = { nonce, raw, hash: keccak256(raw) };
    this.holes.delete(nonce);
    try {
      await client.sendRawTransaction({ serializedTransaction: raw });
    } catch (error) {
      // Note: the node holds something at this nonce after all (or it was mined meanwhile).
      if (!isAlreadyKnown(error) && !/nonce|underpriced/.test(relayerTrouble(error) ?? ''))
        this.log(`relayer: could not fill nonce ${nonce}: ${messageOf(error)}`);
      return;
    }
    this.fillers.set(nonce, filler);
    this.seen.set(filler.hash, Date.now());
    this.log(
      `relayer: nonce ${nonce} was missing for ${Math.round((Date.now() - since) / 1000)} s ` +
        `with later transactions waiting behind it; filled with a 0-value transaction ${filler.hash}`,
    );
  }
}

const authorizationStateAbi = [
  {
    type: 'function',
    name: 'authorizationState',
    stateMutability: 'view',
    inputs: [
      { name: 'authorizer', type: 'address' },
      { name: 'nonce', type: 'bytes32' },
    ],
    outputs: [{ type: 'bool' }],
  },
] as const;

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** A failure's one-line text. */
export function messageOf(error: unknown): string {
  if (error instanceof BaseError) {
    const details = detailsOf(error)[0];
    return details ? `${error.shortMessage} (${details})` : error.shortMessage;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The managers of running forwarding loops, by their chain's nonce lock. */
const managers = new WeakMap<object, RelayerManager>();

/** Makes `manager` the one `sendFromRelayer` consults for `chain`'s relayer. */
export function attachRelayerManager(manager: RelayerManager): void {
  managers.set(manager.chain.relayerLock, manager);
}

/** The manager looking after `chain`'s relayer, if a forwarding loop started one. */
export function relayerManagerOf(chain: ForwardingChain): RelayerManager | undefined {
  return managers.get(chain.relayerLock);
}

// ---------------------------------------------------------------------------------------------
// Health: balance, waiting wallets, forwarding lag

/** What the relayer looks like now (`GET /api/health` and the worker's alerts). */
export interface RelayerStatus {
  address: string;
  /** ETH balance in wei (decimal), null when the chain did not answer. */
  balanceWei: string | null;
  /** The same in ETH. */
  balanceEth: string | null;
  /** The alert threshold: `minForwards` forwards of FORWARD_GAS at the current gas price. */
  minBalanceWei: string | null;
  minForwards: number;
  /** True when the balance is below the threshold (null when unknown). */
  belowThreshold: boolean | null;
  /** Wallets whose forwarding waits for the relayer (null when the database did not answer). */
  waitingWallets: number | null;
  /** Seconds since the oldest paid, not yet forwarded wallet was paid (null: none, or unknown). */
  oldestForwardingLagSeconds: number | null;
  lagAlertSeconds: number;
}

/** Reads the relayer's balance from the chain by address and the forwarding backlog. */
export async function readRelayerStatus(deps: {
  db: Database;
  client: PublicClient;
  address: string;
  minForwards: number;
  lagAlertS: number;
  timeout?: <T>(promise: Promise<T>) => Promise<T>;
}): Promise<RelayerStatus> {
  const within = deps.timeout ?? (<T>(p: Promise<T>) => p);
  const address = deps.address as Hex;
  const [chain, backlog] = await Promise.all([
    within(Promise.all([deps.client.getBalance({ address }), deps.client.getGasPrice()])).catch(
      () => null,
    ),
    within(forwardingBacklog(deps.db)).catch(() => null),
  ]);
  const minBalance = chain ? BigInt(deps.minForwards) * FORWARD_GAS * chain[1] : null;
  return {
    address: deps.address,
    balanceWei: chain ? chain[0].toString() : null,
    balanceEth: chain ? formatEther(chain[0]) : null,
    minBalanceWei: minBalance === null ? null : minBalance.toString(),
    minForwards: deps.minForwards,
    belowThreshold: chain && minBalance !== null ? chain[0] < minBalance : null,
    waitingWallets: backlog ? backlog.waiting : null,
    oldestForwardingLagSeconds: backlog ? backlog.lagSeconds : null,
    lagAlertSeconds: deps.lagAlertS,
  };
}

/**
 * Wallets waiting for the relayer, and the age of the oldest paid one with money that should
 * leave and has not. Note: what is held for the payer (an excess awaiting their address, a refund
 * on its way) is not the merchant's to forward: a wallet whose only unforwarded money is held
 * does not count, as the forwarding loop does not list it (see `loadWalletsWithWork`).
 */
async function forwardingBacklog(db: Database) {
  const held = sql`coalesce((select sum(r.amount) from refunds r
    where r.wallet_id = ${paymentWallets.id} and r.source = 'deposit'
      and r.status in ('awaiting_address', 'ready', 'sending', 'failed')), 0) / 1000000`;
  const [row] = await db
    .select({
      waiting: sql<number>`count(*) filter (where ${paymentWallets.forwardingStatus} = ${WAITING_RELAYER})::int`,
      lagSeconds: sql<
        number | null
      >`floor(extract(epoch from now() - min(${paymentWallets.paymentReceivedAt}) filter (
        where ${paymentWallets.status} = 'received'
          and ${paymentWallets.receivedAmountUsdc} - ${paymentWallets.forwardedAmountUsdc} > ${held})))::int`,
    })
    .from(paymentWallets)
    .where(sql`${paymentWallets.forwardingDue}`);
  return { waiting: row?.waiting ?? 0, lagSeconds: row?.lagSeconds ?? null };
}

/** One alert, by kind (a crossing is logged once). */
export interface RelayerAlert {
  kind: 'balance' | 'waiting' | 'lag';
  text: string;
}

/** The alerts a status raises (empty when all is well). */
export function relayerAlerts(status: RelayerStatus): RelayerAlert[] {
  const alerts: RelayerAlert[] = [];
  if (status.belowThreshold && status.balanceWei !== null && status.minBalanceWei !== null)
    alerts.push({
      kind: 'balance',
      text:
        `relayer ${status.address} holds ${formatEther(BigInt(status.balanceWei))} ETH, below ` +
        `${formatEther(BigInt(status.minBalanceWei))} ETH (${status.minForwards} forwards at the ` +
        'current gas price): fund it',
    });
  if (status.waitingWallets)
    alerts.push({
      kind: 'waiting',
      text: `${status.waitingWallets} paid order(s) waiting for the relayer to forward them`,
    });
  const lag = status.oldestForwardingLagSeconds;
  if (lag !== null && lag > status.lagAlertSeconds)
    alerts.push({
      kind: 'lag',
      text: `the oldest paid order has waited ${lag} s to be forwarded (alert above ${status.lagAlertSeconds} s)`,
    });
  return alerts;
}

// ---------------------------------------------------------------------------------------------
// The worker's watch

/** Options of the watch. */
export interface RelayerWatchOptions {
  manager: RelayerManager;
  log: (line: string) => void;
  /** Called when waiting wallets may go again (the relayer came back). */
  onRecovered: () => void;
}

/**
 * Every `checkIntervalMs`: tends the relayer's nonces, logs an alert line when a threshold is
 * crossed (once, and once more when it clears), and when the relayer can pay for a forward again
 * after it could not, makes every waiting wallet due now.
 */
export function startRelayerWatch(options: RelayerWatchOptions): WakeableLoop {
  const { manager, log } = options;
  const { chain, db, settings } = manager;
  const active = new Map<RelayerAlert['kind'], string>();
  let troubled = false;
  let lastTendError = '';
  return startWakeableLoop(
    'relayer',
    settings.checkIntervalMs,
    async () => {
      try {
        await manager.tend();
        lastTendError = '';
      } catch (error) {
        const message = relayerTrouble(error) ?? messageOf(error);
        if (message !== lastTendError) log(`relayer: could not tend its transactions: ${message}`);
        lastTendError = message;
      }
      const status = await readRelayerStatus({
        db,
        client: chain.client,
        address: chain.relayer.address,
        minForwards: settings.minForwards,
        lagAlertS: settings.lagAlertS,
      });
      const alerts = relayerAlerts(status);
      for (const alert of alerts) {
        if (!active.has(alert.kind)) log(`ALERT ${alert.text}`);
        active.set(alert.kind, alert.text);
      }
      for (const kind of [...active.keys()]) {
        if (alerts.some((a) => a.kind === kind)) continue;
        log(`alert cleared: ${kind} (${active.get(kind)})`);
        active.delete(kind);
      }
      if (status.balanceWei === null || status.minBalanceWei === null) return false;
      const oneForward = BigInt(status.minBalanceWei) / BigInt(Math.max(1, settings.minForwards));
      const canPay = BigInt(status.balanceWei) > oneForward;
      if (troubled && canPay) {
        const resumed = await db
          .update(paymentWallets)
          .set({ forwardingNextAttemptAt: new Date() })
          .where(eq(paymentWallets.forwardingStatus, WAITING_RELAYER))
          .returning({ id: paymentWallets.id });
        log(`relayer can pay for gas again: ${resumed.length} waiting wallet(s) resume now`);
        options.onRecovered();
      }
      troubled = !canPay;
      return false;
    },
    log,
  );
}
