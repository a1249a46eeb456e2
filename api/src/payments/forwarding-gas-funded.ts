// Forwarding for a token without EIP-3009 (FORWARDING_MODE=gas-funded): the deposit key signs
// plain `transfer`s at fixed account nonces, the relayer sends the deposit address just the ETH
// their gas needs, then they are broadcast. Exactly once: each transfer is one signed transaction
// at one account nonce, stored before broadcast; the chain runs at most one per nonce.
// Note: what the margins leave behind (unused gas limit and fee headroom) stays on the address
// as ETH dust and is reused by its next round; the tests measure it.
import { confirmationsOf } from '@store/shared';
import {
  encodeFunctionData,
  type Hash,
  keccak256,
  type LocalAccount,
  parseTransaction,
  type TransactionSerializable,
} from 'viem';
import { usdcAbi } from '../chain/usdc-abi.ts';
import { crashPoint } from './crash-point.ts';
import { broadcast, minedLeg, receiptOf, sendFromRelayer } from './forwarding-chain.ts';
import type { ForwardingContext } from './forwarding-context.ts';
import {
  completeRound,
  insertLegs,
  type LegRow,
  type MinedLeg,
  openRoundLegs,
  saveLegTransactions,
  signedTransactionOf,
  type WalletRow,
} from './forwarding-store.ts';
import { legTxRecord } from './forwarding-submit.ts';

const GAS_MARGIN_PERCENT = 10n;

/** Runs (or resumes) a gas-funded round; true when it completed. */
export async function forwardGasFunded(
  ctx: ForwardingContext,
  wallet: WalletRow,
  account: LocalAccount,
  legs: LegRow[],
): Promise<boolean> {
  crashPoint(ctx.crashAt, 'before-signing');
  const transfers = await signTransfers(
    ctx,
    account,
    legs.filter((l) => l.leg !== 'gas'),
  );
  const gasLeg = await fundGas(ctx, wallet, account.address, transfers, legs);
  for (const leg of transfers) {
    if (await receiptOf(ctx.chain.client, leg.txHash as Hash)) continue;
    const raw = await signedTransactionOf(ctx.db, leg.txHash);
    if (raw) await broadcast(ctx.chain.client, raw);
  }
  crashPoint(ctx.crashAt, 'after-submitting');
  const mined: MinedLeg[] = await Promise.all(transfers.map((leg) => minedTx(ctx, leg)));
  if (gasLeg) mined.push(await minedTx(ctx, gasLeg));
  crashPoint(ctx.crashAt, 'before-recording');
  // Final only at depth, as in gasless mode: until then the round stays open and a transfer a
  // reorg dropped is broadcast again (same signed bytes, same nonce of the deposit account).
  const head = await ctx.chain.client.getBlockNumber({ cacheTime: 0 });
  const depth = BigInt(ctx.confirmations ?? 1);
  if (mined.some((m) => confirmationsOf(m, head) < depth)) return false;
  return completeRound(ctx.db, wallet, mined, new Date());
}

/** Signs the transfers that have no signed transaction yet, at the next free account nonces. */
async function signTransfers(ctx: ForwardingContext, account: LocalAccount, legs: LegRow[]) {
  const { client, token } = ctx.chain;
  const signedNonces = legs.flatMap((l) => (l.txNonce === null ? [] : [l.txNonce]));
  let nonce = Math.max(
    await client.getTransactionCount({ address: account.address }),
    ...signedNonces.map((n) => n + 1),
  );
  const fees = await client.estimateFeesPerGas();
  const signed: LegRow[] = [];
  for (const leg of legs) {
    if (leg.txHash) {
      signed.push(leg);
      continue;
    }
    const data = encodeFunctionData({
      abi: usdcAbi,
      functionName: 'transfer',
      args: [leg.toAddress as `0x${string}`, BigInt(leg.value)],
    });
    const estimate = await client.estimateGas({ account: account.address, to: token, data });
    const raw = await account.signTransaction({
      type: 'eip1559',
      chainId: ctx.chain.chainId,
      to: token,
      data,
      nonce,
      gas: (estimate * (100n + GAS_MARGIN_PERCENT)) / 100n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    } satisfies TransactionSerializable);
    const fields = { txHash: keccak256(raw), txNonce: nonce, status: 'signed' as const };
    await saveLegTransactions(ctx.db, [{ db: ctx.db, id: leg.id, status: 'signed' }], {
      raw,
      hash: fields.txHash,
      nonce,
    });
    signed.push({ ...leg, ...fields });
    nonce += 1;
  }
  return signed;
}

/** The most ETH the unmined transfers can burn: gas limit × max fee each. */
async function gasNeeded(ctx: ForwardingContext, transfers: LegRow[]): Promise<bigint> {
  let need = 0n;
  for (const leg of transfers) {
    if (await receiptOf(ctx.chain.client, leg.txHash as Hash)) continue;
    const raw = await signedTransactionOf(ctx.db, leg.txHash);
    if (!raw) continue;
    const tx = parseTransaction(raw);
    need += (tx.gas ?? 0n) * (tx.maxFeePerGas ?? 0n);
  }
  return need;
}

/** Tops the deposit address up to what its transfers need (once a round); the gas leg if any. */
async function fundGas(
  ctx: ForwardingContext,
  wallet: WalletRow,
  address: `0x${string}`,
  transfers: LegRow[],
  legs: LegRow[],
): Promise<LegRow | undefined> {
  const { client, relayer } = ctx.chain;
  let gasLeg = legs.find((l) => l.leg === 'gas');
  if (gasLeg?.txHash) {
    await minedTx(ctx, gasLeg);
    return gasLeg;
  }
  const need = await gasNeeded(ctx, transfers);
  const have = await client.getBalance({ address });
  if (have >= need) return gasLeg;
  if (!gasLeg) {
    const round = transfers[0]?.round ?? 1;
    const value = need - have;
    const [inserted] = (await insertLegs(ctx.db, wallet.id, 'gas-funded', round, [
      { leg: 'gas', from: relayer.address, to: address, value },
    ])) ?? [await reloadGasLeg(ctx, wallet.id)];
    gasLeg = inserted;
  }
  if (!gasLeg) throw new Error('the gas leg vanished');
  const leg = gasLeg;
  const tx = await sendFromRelayer(
    ctx.chain,
    { to: address, value: BigInt(leg.value) },
    legTxRecord(ctx.db, leg),
  );
  const funded = { ...leg, txHash: tx.hash };
  await minedTx(ctx, funded);
  return funded;
}

async function reloadGasLeg(ctx: ForwardingContext, walletId: string) {
  return (await openRoundLegs(ctx.db, walletId)).find((l) => l.leg === 'gas');
}

/** Waits for a leg's own transaction; throws when it reverted. */
async function minedTx(ctx: ForwardingContext, leg: LegRow): Promise<MinedLeg> {
  const receipt = await ctx.chain.client.waitForTransactionReceipt({
    hash: leg.txHash as Hash,
    pollingInterval: 50,
    timeout: ctx.receiptTimeoutMs ?? 60_000,
  });
  if (receipt.status !== 'success')
    throw new Error(`forwarding transaction ${receipt.transactionHash} (${leg.leg}) reverted`);
  // Note: viem follows replacements; a receipt of another transaction at this nonce is no proof.
  if (receipt.transactionHash !== leg.txHash)
    throw new Error(
      `forwarding transaction ${leg.txHash} (${leg.leg}) was replaced by ${receipt.transactionHash}`,
    );
  return minedLeg(ctx.chain.client, leg, receipt);
}
