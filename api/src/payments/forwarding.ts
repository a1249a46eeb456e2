// Forwarding one wallet, gaslessly: the worker signs EIP-3009 `transferWithAuthorization` with the
// deposit key (merchant share, fee) and the relayer submits them and pays the gas.
// Exactly once: the legs and their deterministic nonces are in Postgres before anything is
// signed, each signed transaction (with its authorization) before it is broadcast, and every step
// starts from the chain: the receipts of the legs' own transactions, else the token's answer on
// whether a signed leg's nonce is used (a leg never signed cannot be), so a restarted worker
// resumes from Postgres and the chain alone; a resubmission can never pay twice, since the token
// refuses a used nonce.
import { confirmationsOf, isPaidState, isPaymentState } from '@store/shared';
import {
  type Hash,
  type Hex,
  type LocalAccount,
  type TransactionReceipt,
  WaitForTransactionReceiptTimeoutError,
} from 'viem';
import { depositAccount } from '../keys/deposit-address.ts';
import { crashPoint } from './crash-point.ts';
import { paidLeg } from './forwarding-batch.ts';
import { closeLegsOfLostPayment, roundShortfall } from './forwarding-cancel.ts';
import { recordRevertedLeg } from './forwarding-cancel-store.ts';
import {
  findAuthorizationTx,
  headBlock,
  isAuthorizationUsed,
  isPending,
  minedLeg,
  receiptOf,
  tokenBalance,
} from './forwarding-chain.ts';
import type { ForwardingContext } from './forwarding-context.ts';
import { forwardGasFunded } from './forwarding-gas-funded.ts';
import {
  excessDue,
  forwardingNonce,
  isForwardable,
  planLegs,
  roundAmount,
} from './forwarding-plan.ts';
import {
  completeRound,
  deferForwarding,
  insertLegs,
  type LegRow,
  loadWalletWork,
  type MinedLeg,
  openRoundLegs,
  recordMinedLegs,
  type WalletRow,
  type WalletWork,
} from './forwarding-store.ts';
import { prepareAuthorization, sendAuthorizations } from './forwarding-submit.ts';
import {
  completeRefundRound,
  forwardableOf,
  planRefundRound,
  type RefundFigures,
  refundFigures,
  reserveExcess,
  reserveOversold,
} from './refund-store.ts';

export type { ForwardingContext } from './forwarding-context.ts';

/** An error no retry will fix by itself (a person must look). */
export class PermanentForwardingError extends Error {
  override name = 'PermanentForwardingError';
}

/**
 * The payment of a round that is open is no longer on the chain, while the wallet is not reversed
 * yet: forwarding waits for detection (never counted as a failure), then cancels the round.
 */
export class PaymentLeftChainError extends Error {
  override name = 'PaymentLeftChainError';
}

/**
 * Runs (or resumes) the wallet's open round, or plans the next; true when a round completed.
 * Note: only while this worker holds the wallet's claim, and from the wallet as it is once
 * claimed (another worker may have completed a round since the row was listed).
 */
export async function forwardWallet(ctx: ForwardingContext, listed: WalletRow): Promise<boolean> {
  if (ctx.claims && !(await ctx.claims.claim(listed.id))) return false;
  try {
    const work = await loadWalletWork(ctx.db, listed.id);
    return work ? await forwardClaimedWallet(ctx, work) : false;
  } finally {
    await ctx.claims?.release(listed.id);
  }
}

async function forwardClaimedWallet(ctx: ForwardingContext, work: WalletWork): Promise<boolean> {
  const { wallet } = work;
  const account = depositAccount(ctx.mnemonic, wallet.derivationIndex);
  if (account.address.toLowerCase() !== wallet.walletAddress.toLowerCase())
    throw new PermanentForwardingError(
      `the deposit key at ${wallet.derivationPath} is not ${wallet.walletAddress} (wrong PAYMENT_MNEMONIC?)`,
    );
  let { legs } = work;
  const reversed = wallet.status === 'reversed';
  const windowOpen = !(wallet.expiredAt && wallet.expiredAt <= new Date());
  // Note: a reversed payment no longer exists: its open legs are closed (what already left is
  // recorded, the rest cancelled on chain) and nothing new leaves for it while its window is
  // open. A cancellation under way is finished first, whatever the wallet's state now.
  const gasFunded = legs[0]?.mode === 'gas-funded';
  if (!gasFunded && (legs.some((l) => l.status === 'canceling') || (reversed && legs.length > 0)))
    return closeLegsOfLostPayment(ctx, wallet, account, legs);
  if (reversed && windowOpen) {
    // Note: looked at again every 30 s, not on every pass (a reorg may reverse many wallets).
    await deferForwarding(ctx.db, wallet.id, new Date(Date.now() + 30_000));
    return false;
  }
  // Note: the balance a round was just planned from is what it may send (read once a pass).
  let plannedFrom: bigint | undefined;
  if (legs.length === 0) {
    const planned = await planNext(ctx, work, account.address);
    legs = planned?.legs ?? [];
    plannedFrom = planned?.balance;
  }
  if (legs.length === 0) return false;
  // Note: a refund round is always EIP-3009 (the relayer pays its gas), whatever the mode.
  const refund = legs.some((leg) => leg.leg === 'refund');
  if (!refund && legs[0]?.mode === 'gas-funded')
    return forwardGasFunded(ctx, wallet, account, legs);
  // Note: a round whose every leg is mined (the pass after its transactions were sent) is read
  // from their receipts alone: a successful receipt of a leg's own transaction is its
  // authorization used, so nothing is asked of the token and nothing is sent.
  let mined = await allLegsMined(ctx, legs);
  if (!mined) {
    // Note: before anything is sent again (a leg a reorg took away), the payment must still be
    // on the chain and the address must hold what the legs send: else they would only revert.
    const used = await authorizationsUsed(ctx, account.address, legs);
    const shortfall = await roundShortfall(ctx.chain, wallet, legs, new Date(), used, plannedFrom);
    if (shortfall?.gone) throw new PaymentLeftChainError(shortfall.reason);
    if (shortfall) throw new Error(shortfall.reason);
    crashPoint(ctx.crashAt, refund ? 'refund-before-signing' : 'before-signing');
    // Note: a leg whose transaction a reorg removed has its authorization unused again: it is
    // sent again here, under the same authorization nonce, so it can still pay only once.
    // Note: the round's legs are handed to the relayer together: one transaction carries them.
    const prepared = await Promise.all(
      legs.filter((leg) => !used.get(leg.id)).map((leg) => prepareAuthorization(ctx, account, leg)),
    );
    await sendAuthorizations(
      ctx,
      prepared.filter((p) => p !== null),
    );
    crashPoint(ctx.crashAt, refund ? 'refund-after-submitting' : 'after-submitting');
    const sent = await openRoundLegs(ctx.db, wallet.id);
    const found = await Promise.all(sent.map((leg) => authorizationMined(ctx, account, leg)));
    const minedNow = found.filter((m): m is MinedLeg => m !== null);
    if (minedNow.length < found.length) return false;
    mined = minedNow;
  }
  crashPoint(ctx.crashAt, refund ? 'refund-before-recording' : 'before-recording');
  // Final only at depth: until every leg is CONFIRMATIONS deep the round stays open (the wallet
  // reads `forwarding`), and each pass checks again that its transactions are still on chain.
  const deep = await awaitDepth(ctx, mined);
  if (!deep) return false;
  const { missing } = deep;
  mined = deep.mined;
  if (missing > 0n) {
    await recordMinedLegs(ctx.db, mined);
    await deferForwarding(ctx.db, wallet.id, untilDepth(missing));
    return false;
  }
  if (refund) return mined[0] ? completeRefundRound(ctx.db, wallet, mined[0], new Date()) : false;
  return completeRound(ctx.db, wallet, mined, new Date());
}

/**
 * Every leg paid by its own transaction (mined, with the token's event for its authorization),
 * read from receipts only; undefined when a leg has no transaction yet, or one is not mined (or
 * it, or the leg's call in it, failed): the full path then looks at it.
 */
async function allLegsMined(
  ctx: ForwardingContext,
  legs: readonly LegRow[],
): Promise<MinedLeg[] | undefined> {
  if (legs.some((leg) => !leg.txHash || leg.mode !== 'eip3009')) return undefined;
  return paidBy(
    ctx,
    legs.map((leg) => ({ leg, txHash: leg.txHash as Hash })),
  );
}

/**
 * Each leg paid by the transaction given with it (mined, with the token's event for its
 * authorization), read from receipts only; undefined when one is not (not mined, gone, failed).
 */
async function paidBy(
  ctx: ForwardingContext,
  legs: readonly { leg: LegRow; txHash: Hash }[],
): Promise<MinedLeg[] | undefined> {
  const { client, token } = ctx.chain;
  // Note: the legs of a round usually share one transaction: one read of its receipt.
  const byHash = new Map<Hash, ReturnType<typeof receiptOf>>();
  for (const { txHash } of legs)
    if (!byHash.has(txHash)) byHash.set(txHash, receiptOf(client, txHash));
  const receipts = await Promise.all(legs.map(({ txHash }) => byHash.get(txHash)));
  const paid = legs.flatMap(({ leg }, i) => {
    const receipt = receipts[i];
    return receipt && paidLeg(receipt, token, leg) ? [{ leg, receipt }] : [];
  });
  if (paid.length < legs.length) return undefined;
  return Promise.all(paid.map(({ leg, receipt }) => minedLeg(client, leg, receipt)));
}

/**
 * Waits in the pass for a round a few blocks short of its depth (at Base's pace, under a second),
 * then reads its receipts again: a reorg meanwhile may have moved or removed a leg's transaction.
 * Note: a round further from its depth, or one the chain does not bring there in time, is left
 * to a later pass (`missing` > 0), so a slow chain never holds a place for long. Undefined when a
 * leg is no longer paid by its transaction: the next pass looks at the round from the start.
 */
async function awaitDepth(
  ctx: ForwardingContext,
  mined: MinedLeg[],
): Promise<{ mined: MinedLeg[]; missing: bigint } | undefined> {
  const depth = BigInt(ctx.confirmations ?? 1);
  const headNow = () => headBlock(ctx.chain.client);
  let missing = blocksToDepth(mined, await headNow(), depth);
  if (missing === 0n || missing > IN_PASS_BLOCKS) return { mined, missing };
  const deadline = Date.now() + 2 * Number(missing) * BASE_BLOCK_MS;
  while (missing > 0n && Date.now() < deadline) {
    await Bun.sleep(BASE_BLOCK_MS / 2);
    missing = blocksToDepth(mined, await headNow(), depth);
  }
  if (missing > 0n) return { mined, missing };
  const again = await paidBy(
    ctx,
    mined.map((m) => ({ leg: m.leg, txHash: m.txHash })),
  );
  return again && { mined: again, missing: blocksToDepth(again, await headNow(), depth) };
}

/** The most blocks a round waits for its depth within a pass. */
const IN_PASS_BLOCKS = 4n;

/**
 * Whether each leg's authorization is used on chain, by leg id.
 * Note: a leg never signed cannot have been used (the deposit key signs only here, and a
 * signature leaves this process only in a transaction recorded with it, see forwarding-submit.ts):
 * the token is asked about signed legs only.
 */
async function authorizationsUsed(
  ctx: ForwardingContext,
  authorizer: `0x${string}`,
  legs: readonly LegRow[],
): Promise<Map<string, boolean>> {
  const answers = await Promise.all(
    legs.map(
      async (leg): Promise<[string, boolean]> => [
        leg.id,
        leg.mode === 'eip3009' &&
          !!leg.authorizationNonce &&
          (leg.signature !== null || leg.txHash !== null) &&
          (await isAuthorizationUsed(ctx.chain, authorizer, leg.authorizationNonce as Hex)),
      ],
    ),
  );
  return new Map(answers);
}

/**
 * The next round of a wallet with nothing open: first the excess of a paid order is reserved for
 * the payer (an excess refund awaiting their address), then a refund whose address is confirmed
 * goes (one leg, alone in its round), else the merchant's round for what the merchant may get.
 */
async function planNext(
  ctx: ForwardingContext,
  { wallet, lastRound }: WalletWork,
  address: `0x${string}`,
): Promise<PlannedRound | undefined> {
  const now = new Date();
  // Note: one read of the wallet's refund figures tells which of the steps below has work; a
  // step that reserved something is followed by a fresh read (and a look for a ready refund).
  let figures = await refundFigures(ctx.db, wallet.id);
  let reserved = false;
  if (excessDue(forwardableOf(wallet, figures)) > 0n)
    reserved = (await reserveExcess(ctx.db, wallet.id, now)) || reserved;
  // Note: an oversold order's missing units go back to the payer, never to the merchant.
  if (figures.oversold && isPaymentState(wallet.status) && isPaidState(wallet.status))
    reserved = (await reserveOversold(ctx.db, wallet.id, now)) || reserved;
  if (reserved) figures = await refundFigures(ctx.db, wallet.id);
  if (figures.refundReady) {
    const refund = await planRefundRound(ctx.db, wallet, address, (round) =>
      forwardingNonce(wallet.id, round, 'refund'),
    );
    if (refund?.length) return { legs: refund };
  }
  return planRound(ctx, wallet, lastRound + 1, address, now, figures);
}

/** Blocks the shallowest leg still needs to reach `depth` (0 when all are deep enough). */
function blocksToDepth(mined: readonly MinedLeg[], head: bigint, depth: bigint): bigint {
  let missing = 0n;
  for (const m of mined) {
    const left = depth - confirmationsOf(m, head);
    if (left > missing) missing = left;
  }
  return missing;
}

/**
 * When to look again at a round `missing` blocks short of its depth. Note: at Base's pace (one
 * block every 200 ms), never later: a slower chain only makes the round look again sooner.
 */
function untilDepth(missing: bigint): Date {
  return new Date(Date.now() + Number(missing) * BASE_BLOCK_MS);
}

const BASE_BLOCK_MS = 200;

/** A round's legs as planned, with the address's balance they were planned from when read. */
interface PlannedRound {
  legs: LegRow[];
  balance?: bigint;
}

/** Inserts the next round's legs for what the address holds; undefined when there is nothing. */
async function planRound(
  ctx: ForwardingContext,
  wallet: WalletRow,
  round: number,
  address: `0x${string}`,
  now: Date,
  figures: RefundFigures,
): Promise<PlannedRound | undefined> {
  // Note: never what is held for the payer (an excess, a refund of an underpaid order).
  const amounts = forwardableOf(wallet, figures);
  if (!isForwardable(amounts, now)) return undefined;
  const balance = await tokenBalance(ctx.chain, address);
  const amount = roundAmount(balance - (amounts.heldAmount ?? 0n), amounts, now);
  // Note: an error, not a silent skip: it is counted, shown to the merchant and retried later.
  if (amount === 0n) throw new Error(`${address} holds none of the USDC recorded as received`);
  const merchant = wallet.storePaymentAddress as `0x${string}`;
  const legs = planLegs(amount, merchant, ctx.chain.treasury).map((leg) => ({
    leg: leg.leg,
    from: address,
    to: leg.to,
    value: leg.value,
    ...(ctx.mode === 'eip3009'
      ? { authorizationNonce: forwardingNonce(wallet.id, round, leg.leg) }
      : {}),
  }));
  const inserted = await insertLegs(ctx.db, wallet.id, ctx.mode, round, legs);
  return inserted && { legs: inserted, balance };
}

/**
 * The receipt of `hash` once mined, or null as soon as the node no longer knows it (a reorg took
 * it away, or it was replaced): waiting out a receipt that can never come would hold the round
 * for the whole timeout. Note: the legs of one batch wait for the same transaction: one poll for
 * all of them.
 */
function minedOrDropped(ctx: ForwardingContext, hash: Hash): Promise<TransactionReceipt | null> {
  let waiting = receiptWaits.get(hash);
  if (!waiting) {
    waiting = pollMinedOrDropped(ctx, hash).finally(() => receiptWaits.delete(hash));
    receiptWaits.set(hash, waiting);
  }
  return waiting;
}

const receiptWaits = new Map<Hash, Promise<TransactionReceipt | null>>();

async function pollMinedOrDropped(ctx: ForwardingContext, hash: Hash) {
  const { client } = ctx.chain;
  const deadline = Date.now() + (ctx.receiptTimeoutMs ?? 60_000);
  for (let polls = 1; ; polls++) {
    const receipt = await receiptOf(client, hash);
    if (receipt) return receipt;
    if (polls % 10 === 0 && !(await isPending(client, hash))) return null;
    if (Date.now() > deadline) throw new WaitForTransactionReceiptTimeoutError({ hash });
    await Bun.sleep(50);
  }
}

/**
 * Waits for the transaction that consumed the leg's authorization; null when it left the chain
 * and the authorization is unused again (sent again by the next pass); throws if it failed.
 */
async function authorizationMined(
  ctx: ForwardingContext,
  account: LocalAccount,
  leg: LegRow,
): Promise<MinedLeg | null> {
  const { client } = ctx.chain;
  const nonce = leg.authorizationNonce as Hex;
  let hash = leg.txHash as Hash | null;
  if (hash) {
    const receipt = await minedOrDropped(ctx, hash);
    // Note: the receipt proves this authorization only if it is this leg's own transaction and
    // holds its event (a batch succeeds when one of its calls fails).
    if (receipt && paidLeg(receipt, ctx.chain.token, leg)) return minedLeg(client, leg, receipt);
    // Note: a reverted transaction (or the leg's call in a batch) is recorded (hash, its part of
    // the gas), never left as if it were on its way.
    if (receipt) await recordRevertedLeg(ctx.db, leg, receipt, new Date(), client);
    // Dropped (a reorg, a node that forgot it) and not used: the next pass sends it again.
    if (!receipt && !(await isAuthorizationUsed(ctx.chain, account.address, nonce))) return null;
  }
  // Note: the recorded transaction is not the one that paid (a resubmission replaced it).
  if (!(await isAuthorizationUsed(ctx.chain, account.address, nonce)))
    throw new Error(`forwarding transaction ${hash ?? '(none)'} of the ${leg.leg} share reverted`);
  hash = await findAuthorizationTx(ctx.chain, account.address, nonce);
  const receipt = hash ? await receiptOf(client, hash) : null;
  if (!receipt) throw new Error(`the ${leg.leg} authorization was used by an unknown transaction`);
  return minedLeg(client, leg, receipt);
}
