// Forwarding one wallet, gaslessly: the worker signs EIP-3009 `transferWithAuthorization` with the
// deposit key (merchant share, fee) and the relayer submits them and pays the gas.
// Exactly once: the legs and their deterministic nonces are in Postgres before anything is
// signed, each signed transaction before it is broadcast, and every step starts by asking the
// token whether the nonce is already used, so a restarted worker resumes from Postgres and the
// chain alone; a resubmission can never pay twice, since the token refuses a used nonce.
import { parseUsdc } from '@store/shared';
import type { Hash, Hex, LocalAccount } from 'viem';
import type { Database } from '../db/client.ts';
import { depositAccount } from '../keys/deposit-address.ts';
import { crashPoint } from './crash-point.ts';
import {
  type ForwardingChain,
  findAuthorizationTx,
  isAuthorizationUsed,
  minedLeg,
  receiptOf,
  tokenBalance,
} from './forwarding-chain.ts';
import { forwardGasFunded } from './forwarding-gas-funded.ts';
import { forwardingNonce, isForwardable, planLegs, roundAmount } from './forwarding-plan.ts';
import {
  completeRound,
  insertLegs,
  type LegRow,
  type MinedLeg,
  nextRound,
  openRoundLegs,
  type WalletRow,
} from './forwarding-store.ts';
import { submitAuthorization } from './forwarding-submit.ts';

/** Everything the forwarding of one wallet needs. */
export interface ForwardingContext {
  db: Database;
  chain: ForwardingChain;
  /** The deposit seed (the worker alone holds it). */
  mnemonic: string;
  mode: 'eip3009' | 'gas-funded';
  /** Test hook: the step to die at (FORWARDING_CRASH_AT). */
  crashAt?: string;
  /** How long a pass waits for its transactions to be mined before leaving them to the next. */
  receiptTimeoutMs?: number;
}

/** An error no retry will fix by itself (a person must look). */
export class PermanentForwardingError extends Error {
  override name = 'PermanentForwardingError';
}

/** Runs (or resumes) the wallet's open round, or plans the next; true when a round completed. */
export async function forwardWallet(ctx: ForwardingContext, wallet: WalletRow): Promise<boolean> {
  const account = depositAccount(ctx.mnemonic, wallet.derivationIndex);
  if (account.address.toLowerCase() !== wallet.walletAddress.toLowerCase())
    throw new PermanentForwardingError(
      `the deposit key at ${wallet.derivationPath} is not ${wallet.walletAddress} (wrong PAYMENT_MNEMONIC?)`,
    );
  let legs = await openRoundLegs(ctx.db, wallet.id);
  if (legs.length === 0) legs = (await planRound(ctx, wallet, account.address)) ?? [];
  if (legs.length === 0) return false;
  if (legs[0]?.mode === 'gas-funded') return forwardGasFunded(ctx, wallet, account, legs);
  crashPoint(ctx.crashAt, 'before-signing');
  for (const leg of legs) await submitAuthorization(ctx, account, leg);
  crashPoint(ctx.crashAt, 'after-submitting');
  const sent = await openRoundLegs(ctx.db, wallet.id);
  const mined = await Promise.all(sent.map((leg) => authorizationMined(ctx, account, leg)));
  crashPoint(ctx.crashAt, 'before-recording');
  return completeRound(ctx.db, wallet, mined, new Date());
}

/** Inserts the next round's legs for what the address holds; undefined when there is nothing. */
async function planRound(
  ctx: ForwardingContext,
  wallet: WalletRow,
  address: `0x${string}`,
): Promise<LegRow[] | undefined> {
  const amounts = {
    status: wallet.status,
    expiredAt: wallet.expiredAt,
    receivedAmount: parseUsdc(wallet.receivedAmountUsdc),
    forwardedAmount: parseUsdc(wallet.forwardedAmountUsdc),
  };
  if (!isForwardable(amounts, new Date())) return undefined;
  const amount = roundAmount(await tokenBalance(ctx.chain, address), amounts);
  // Note: an error, not a silent skip: it is counted, shown to the merchant and retried later.
  if (amount === 0n) throw new Error(`${address} holds none of the USDC recorded as received`);
  const round = await nextRound(ctx.db, wallet.id);
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
  return insertLegs(ctx.db, wallet.id, ctx.mode, round, legs);
}

/** Waits for the transaction that consumed the leg's authorization; throws if it failed. */
async function authorizationMined(
  ctx: ForwardingContext,
  account: LocalAccount,
  leg: LegRow,
): Promise<MinedLeg> {
  const { client } = ctx.chain;
  const nonce = leg.authorizationNonce as Hex;
  let hash = leg.txHash as Hash | null;
  if (hash) {
    const receipt = await client.waitForTransactionReceipt({
      hash,
      pollingInterval: 50,
      timeout: ctx.receiptTimeoutMs ?? 60_000,
    });
    // Note: viem follows replacements: the receipt may be another transaction that took the
    // relayer nonce (another wallet's leg), which proves nothing about this authorization.
    if (receipt.status === 'success' && receipt.transactionHash === hash)
      return minedLeg(leg, receipt);
  }
  // Note: the recorded transaction is not the one that paid (a resubmission replaced it).
  if (!(await isAuthorizationUsed(ctx.chain, account.address, nonce)))
    throw new Error(`forwarding transaction ${hash ?? '(none)'} of the ${leg.leg} share reverted`);
  hash = await findAuthorizationTx(ctx.chain, account.address, nonce);
  const receipt = hash ? await receiptOf(client, hash) : null;
  if (!receipt) throw new Error(`the ${leg.leg} authorization was used by an unknown transaction`);
  return minedLeg(leg, receipt);
}
