// Legs of a payment that left the chain (a reorg deeper than the depth took it away) are never sent
// again into an empty address. Each open leg is looked up on the chain: one a transfer paid is
// recorded as paid; one whose transaction was mined and failed is recorded as reverted (its hash
// and gas); the others have their EIP-3009 authorization cancelled on chain (`cancelAuthorization`,
// signed by the deposit key, carried by the relayer): a signed authorization, once broadcast, can
// be submitted by anyone the day money is on the address again, and it would pay this old round
// beside the next one. At depth the legs are closed as `canceled` and the wallet's forwarding says
// so; if the payment is mined again, the next round (new nonces) forwards it.
import { confirmationsOf } from '@store/shared';
import { eq } from 'drizzle-orm';
import {
  encodeFunctionData,
  type Hash,
  type Hex,
  type LocalAccount,
  type TransactionReceipt,
} from 'viem';
import { cancelAuthorizationTypes, usdcAbi, usdcDomain } from '../chain/usdc-abi.ts';
import { forwardingTransfers } from '../db/schema.ts';
import { isBatch, paidLeg } from './forwarding-batch.ts';
import {
  type CanceledLeg,
  recordCanceledLegs,
  recordRevertedLeg,
} from './forwarding-cancel-store.ts';
import {
  type ForwardingChain,
  findAuthorizationTx,
  isAuthorizationUsed,
  isPending,
  minedLeg,
  receiptOf,
  sendFromRelayer,
  tokenBalance,
} from './forwarding-chain.ts';
import type { ForwardingContext } from './forwarding-context.ts';
import {
  completeRound,
  deferForwarding,
  type LegRow,
  loadWallet,
  type MinedLeg,
  openRoundLegs,
  recordMinedLegs,
  type WalletRow,
} from './forwarding-store.ts';
import { legTxRecord, recordedTxOnItsWay } from './forwarding-submit.ts';

/** Why a round's unpaid legs cannot pay now; `gone`: its payment is no longer on the chain. */
export interface Shortfall {
  gone: boolean;
  reason: string;
}

/**
 * What stands between the wallet's open legs and their transfers: nothing (undefined), or the
 * payment is gone (the wallet is reversed while its window is open, or the shopper's transaction
 * is no longer on the chain), or the address holds less than the legs not yet paid send (their
 * transactions would only revert, and cost the relayer gas).
 */
export async function roundShortfall(
  chain: ForwardingChain,
  wallet: Pick<WalletRow, 'status' | 'expiredAt' | 'depositTxHash' | 'walletAddress'>,
  legs: readonly LegRow[],
  now = new Date(),
  /** Whether each leg's authorization is used, by leg id, when the caller already asked. */
  used?: ReadonlyMap<string, boolean>,
  /** The address's balance, when the caller just read it to plan these very legs. */
  knownBalance?: bigint,
): Promise<Shortfall | undefined> {
  const address = wallet.walletAddress as `0x${string}`;
  let unpaid = 0n;
  for (const leg of legs) {
    if (leg.mode !== 'eip3009' || !leg.authorizationNonce || leg.status === 'canceling') continue;
    const isUsed =
      used?.get(leg.id) ??
      (await isAuthorizationUsed(chain, address, leg.authorizationNonce as Hex));
    if (!isUsed) unpaid += BigInt(leg.value);
  }
  if (unpaid === 0n) return undefined;
  // Note: a reversed wallet whose window closed forwards what the reorg left: its balance decides.
  if (wallet.status === 'reversed' && !(wallet.expiredAt && wallet.expiredAt <= now))
    return { gone: true, reason: 'the payment left the chain (the order is reversed)' };
  if (wallet.depositTxHash) {
    const receipt = await receiptOf(chain.client, wallet.depositTxHash as Hash);
    if (receipt?.status !== 'success')
      return {
        gone: true,
        reason: `the payment ${wallet.depositTxHash} is no longer on the chain (a reorg?)`,
      };
  }
  const balance = knownBalance ?? (await tokenBalance(chain, address));
  if (balance >= unpaid) return undefined;
  return {
    gone: false,
    reason: `${address} holds ${balance} of the ${unpaid} base units its round forwards (the payment left the chain?)`,
  };
}

/**
 * Whether a relayer transaction of this leg that the node lost may be broadcast again: a
 * cancellation always; a transfer only while nothing stands between it and its payment (see
 * `roundShortfall`). Note: asked by the relayer's manager before it sends a lost transaction again.
 */
export async function mayResendLeg(
  ctx: Pick<ForwardingContext, 'db' | 'chain'>,
  legId: string,
): Promise<boolean> {
  const [leg] = await ctx.db
    .select()
    .from(forwardingTransfers)
    .where(eq(forwardingTransfers.id, legId));
  if (leg?.mode !== 'eip3009' || leg.status === 'canceling') return true;
  const wallet = await loadWallet(ctx.db, leg.walletId);
  if (!wallet) return false;
  const legs = await openRoundLegs(ctx.db, wallet.id);
  return (await roundShortfall(ctx.chain, wallet, legs)) === undefined;
}

/** What the chain says of an open leg of a lost payment. */
type LegOnChain =
  | { kind: 'paid' | 'canceled'; mined: MinedLeg; receipt: TransactionReceipt }
  | { kind: 'pending' }
  | { kind: 'open' };

/**
 * Looks the leg up: its authorization used by a transfer (paid) or by a cancellation (canceled),
 * a transaction of it still in the pool (pending), or nothing (open: to cancel). A recorded
 * transaction mined and reverted is recorded as such on the way.
 */
async function legOnChain(
  ctx: ForwardingContext,
  account: LocalAccount,
  leg: LegRow,
): Promise<LegOnChain> {
  const { client, token } = ctx.chain;
  const nonce = leg.authorizationNonce as Hex;
  const hash = leg.txHash as Hash | null;
  const receipt = hash ? await receiptOf(client, hash) : null;
  // Note: a batch whose call for this leg failed is that leg's revert.
  const callFailed = receipt !== null && isBatch(receipt) && !paidLeg(receipt, token, leg);
  if (receipt && (receipt.status === 'reverted' || callFailed))
    await recordRevertedLeg(ctx.db, leg, receipt, new Date(), client);
  if (await isAuthorizationUsed(ctx.chain, account.address, nonce)) {
    for (const kind of ['paid', 'canceled'] as const) {
      const how = kind === 'paid' ? 'used' : 'canceled';
      const by = await findAuthorizationTx(ctx.chain, account.address, nonce, how);
      const mined = by ? await receiptOf(client, by) : null;
      if (mined) return { kind, mined: await minedLeg(client, leg, mined), receipt: mined };
    }
    throw new Error(`the ${leg.leg} authorization was used by an unknown transaction`);
  }
  // Note: a successful receipt with the authorization unused is a node behind the chain: wait.
  if (receipt?.status === 'success' && !callFailed) return { kind: 'pending' };
  if (hash && !receipt && (await isPending(client, hash))) return { kind: 'pending' };
  return { kind: 'open' };
}

/** Cancels the leg's authorization on chain, unless its cancellation is already on its way. */
async function sendCancellation(ctx: ForwardingContext, account: LocalAccount, leg: LegRow) {
  if (leg.status === 'canceling' && (await recordedTxOnItsWay(ctx, leg))) return;
  const nonce = leg.authorizationNonce as Hex;
  const signature = await account.signTypedData({
    domain: usdcDomain(ctx.chain.chainId, ctx.chain.token),
    types: cancelAuthorizationTypes,
    primaryType: 'CancelAuthorization',
    message: { authorizer: account.address, nonce },
  });
  const data = encodeFunctionData({
    abi: usdcAbi,
    functionName: 'cancelAuthorization',
    args: [account.address, nonce, signature],
  });
  await sendFromRelayer(
    ctx.chain,
    { to: ctx.chain.token, data },
    legTxRecord(ctx.db, leg, 'canceling'),
  );
}

/** An authorization this close to its end is let lapse rather than cancelled. */
const LAPSE_MARGIN_S = 60n;

/** A leg the chain says is done: paid by its transfer, or cancelled. */
type Done = Extract<LegOnChain, { mined: MinedLeg }>;

/**
 * Closes the open legs of a wallet whose payment left the chain (see the file's header), or whose
 * legs are being cancelled. Every open leg goes: a round is never half paid and half planned
 * again. Paid and cancelled legs are recorded at depth. True when a round was recorded (legs a
 * transfer paid before the payment left).
 */
export async function closeLegsOfLostPayment(
  ctx: ForwardingContext,
  wallet: WalletRow,
  account: LocalAccount,
  legs: readonly LegRow[],
): Promise<boolean> {
  const found = await Promise.all(legs.map((leg) => legOnChain(ctx, account, leg)));
  // Note: read again: a reverted transaction was recorded on the way.
  const fresh = new Map((await openRoundLegs(ctx.db, wallet.id)).map((leg) => [leg.id, leg]));
  const now = BigInt(Math.floor(Date.now() / 1000));
  const canceled: CanceledLeg[] = [];
  const done: Done[] = [];
  let waiting = false;
  for (const [i, listed] of legs.entries()) {
    const state = found[i];
    const leg = fresh.get(listed.id) ?? listed;
    if (!state || state.kind === 'pending') waiting = true;
    else if (state.kind !== 'open') done.push(state);
    // Note: never signed, or about to expire: it can never be used, nothing to cancel on chain.
    else if (!leg.signature || BigInt(leg.validBefore ?? 0) <= now + LAPSE_MARGIN_S)
      canceled.push({ leg });
    else {
      await sendCancellation(ctx, account, leg);
      waiting = true;
    }
  }
  const head = await ctx.chain.client.getBlockNumber({ cacheTime: 0 });
  const depth = BigInt(ctx.confirmations ?? 1);
  const missing = (d: Done) => depth - confirmationsOf(d.mined, head);
  const shallow = done.filter((d) => missing(d) > 0n);
  const deep = done.filter((d) => missing(d) <= 0n);
  await recordMinedLegs(
    ctx.db,
    shallow.filter((d) => d.kind === 'paid').map((d) => d.mined),
  );
  const paid = deep.filter((d) => d.kind === 'paid').map((d) => d.mined);
  const recorded = paid.length > 0 && (await completeRound(ctx.db, wallet, paid, new Date()));
  for (const d of deep)
    if (d.kind === 'canceled') canceled.push({ leg: d.mined.leg, receipt: d.receipt });
  await recordCanceledLegs(ctx.db, wallet, canceled, new Date());
  let blocks = 0n;
  for (const d of shallow) if (missing(d) > blocks) blocks = missing(d);
  if (waiting || blocks > 0n) await deferForwarding(ctx.db, wallet.id, untilBlocks(blocks));
  return recorded;
}

/** When to look again: after `blocks` blocks at Base's pace, and not before a second. */
function untilBlocks(blocks: bigint): Date {
  return new Date(Date.now() + Math.max(1000, Number(blocks) * 200));
}
