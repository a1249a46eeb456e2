// Submitting one leg of a gasless round: the worker signs the EIP-3009 authorization with the
// deposit key (re-signed only when it nears its end, always under the leg's one nonce) and the
// relayer carries it in a transaction that is recorded before it is broadcast.
import { encodeFunctionData, type Hash, type Hex, type LocalAccount } from 'viem';
import { transferWithAuthorizationTypes, usdcAbi, usdcDomain } from '../chain/usdc-abi.ts';
import type { ForwardingContext } from './forwarding.ts';
import {
  broadcast,
  isAuthorizationUsed,
  isPending,
  receiptOf,
  sendFromRelayer,
} from './forwarding-chain.ts';
import { type LegRow, updateLeg } from './forwarding-store.ts';

/** An authorization's lifetime: long enough for any retry schedule, re-signed when near. */
const AUTHORIZATION_LIFETIME_S = 24n * 60n * 60n;
const RESIGN_MARGIN_S = 10n * 60n;

/** Signs (or re-signs) a leg's authorization and has the relayer submit it, unless it is done. */
export async function submitAuthorization(
  ctx: ForwardingContext,
  account: LocalAccount,
  leg: LegRow,
) {
  const { client } = ctx.chain;
  const nonce = leg.authorizationNonce as Hex;
  if (await isAuthorizationUsed(ctx.chain, account.address, nonce)) return;
  if (leg.txHash && leg.rawTransaction && leg.txNonce !== null) {
    const hash = leg.txHash as Hash;
    const receipt = await receiptOf(client, hash);
    if (!receipt && (await isPending(client, hash))) return;
    const latest = await client.getTransactionCount({ address: ctx.chain.relayer.address });
    // Note: dropped by the node with its nonce still free: the same bytes go out again.
    if (!receipt && latest <= leg.txNonce) return broadcast(client, leg.rawTransaction as Hex);
    // Otherwise it reverted, or its nonce went to another transaction: sign and send anew.
  }
  const now = BigInt(Math.floor(Date.now() / 1000));
  let signature = leg.signature as Hex | null;
  let validBefore = leg.validBefore ? BigInt(leg.validBefore) : 0n;
  if (!signature || validBefore < now + RESIGN_MARGIN_S) {
    validBefore = now + AUTHORIZATION_LIFETIME_S;
    signature = await account.signTypedData({
      domain: usdcDomain(ctx.chain.chainId, ctx.chain.token),
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: account.address,
        to: leg.toAddress as `0x${string}`,
        value: BigInt(leg.value),
        validAfter: 0n,
        validBefore,
        nonce,
      },
    });
    await updateLeg(ctx.db, leg.id, {
      signature,
      validBefore: String(validBefore),
      status: 'signed',
    });
  }
  const data = encodeFunctionData({
    abi: usdcAbi,
    functionName: 'transferWithAuthorization',
    args: [
      account.address,
      leg.toAddress as `0x${string}`,
      BigInt(leg.value),
      0n,
      validBefore,
      nonce,
      signature,
    ],
  });
  await sendFromRelayer(ctx.chain, { to: ctx.chain.token, data }, (tx) =>
    updateLeg(ctx.db, leg.id, {
      rawTransaction: tx.raw,
      txHash: tx.hash,
      txNonce: tx.nonce,
      status: 'sent',
    }),
  );
}
