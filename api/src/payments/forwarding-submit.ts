// Submitting the legs of a gasless round: the worker signs each EIP-3009 authorization with the
// deposit key (re-signed only when it nears its end, always under the leg's one nonce) and the
// relayer carries them, together, in a transaction that is recorded on each leg before it is
// broadcast, and forgotten when the node refuses it.

import type { ForwardingLegStatus } from '@store/shared';
import { and, eq } from 'drizzle-orm';
import type { Address, Hash, Hex, LocalAccount } from 'viem';
import {
  signTransferAuthorization,
  type TransferAuthorization,
  transferWithAuthorizationData,
} from '../chain/usdc-abi.ts';
import type { Database } from '../db/client.ts';
import { forwardingTransfers } from '../db/schema.ts';
import {
  broadcast,
  isPending,
  receiptOf,
  type SignedTx,
  sendFromRelayer,
  type TxRecord,
} from './forwarding-chain.ts';
import type { ForwardingContext } from './forwarding-context.ts';
import {
  type LegRow,
  type LegTxSave,
  saveLegTransactions,
  signedTransactionOf,
} from './forwarding-store.ts';
import { nodeRefused } from './relayer.ts';

/**
 * Where a leg keeps its relayer transaction: recorded before broadcast; cleared, only while the
 * leg still holds that transaction, when the node refused it (it never reached the chain, and its
 * relayer nonce must not stay with this leg). The authorization and its nonce are kept.
 */
export function legTxRecord(
  db: Database,
  leg: Pick<LegRow, 'id' | 'signature'>,
  sentStatus: ForwardingLegStatus = 'sent',
  /** A new authorization the transaction carries, saved with it (one write). */
  signed?: Pick<LegRow, 'signature' | 'validBefore'>,
): TxRecord {
  const save: LegTxSave = { db, id: leg.id, status: sentStatus, ...(signed ? { signed } : {}) };
  return {
    leg: save,
    save: (tx) => saveLegTransactions(db, [save], tx),
    forget: async (tx) => {
      await db
        .update(forwardingTransfers)
        .set({
          txHash: null,
          txNonce: null,
          status: leg.signature ? 'signed' : 'planned',
        })
        .where(and(eq(forwardingTransfers.id, leg.id), eq(forwardingTransfers.txHash, tx.hash)));
    },
  };
}

/** An authorization's lifetime: long enough for any retry schedule, re-signed when near. */
const AUTHORIZATION_LIFETIME_S = 24n * 60n * 60n;
const RESIGN_MARGIN_S = 10n * 60n;

/**
 * True when the leg's recorded relayer transaction is still on its way: the node holds it, or it
 * was dropped with its nonce still free and the same bytes went out again. False when it must be
 * signed anew: it was mined (and reverted), its nonce went to another transaction, or the node
 * refused the same bytes (underpriced now, or the relayer is out of ETH; the record then goes, so
 * the new one takes the chain's next nonce at today's fees).
 */
export async function recordedTxOnItsWay(ctx: ForwardingContext, leg: LegRow): Promise<boolean> {
  if (!leg.txHash || leg.txNonce === null) return false;
  const { client } = ctx.chain;
  const hash = leg.txHash as Hash;
  const receipt = await receiptOf(client, hash);
  if (receipt) return false;
  if (await isPending(client, hash)) return true;
  const latest = await client.getTransactionCount({ address: ctx.chain.relayer.address });
  if (latest > leg.txNonce) return false;
  const raw = await signedTransactionOf(ctx.db, hash);
  if (!raw) return false;
  const sent: SignedTx = { raw, hash, nonce: leg.txNonce };
  try {
    await broadcast(client, sent.raw);
    return true;
  } catch (error) {
    if (!nodeRefused(error)) throw error;
    await legTxRecord(ctx.db, leg).forget(sent);
    return false;
  }
}

/** A leg's token call, ready for the relayer, and where its transaction is to be recorded. */
export interface PreparedLeg {
  request: { to: `0x${string}`; data: Hex };
  record: TxRecord;
}

/**
 * Has the relayer carry the legs' calls, handed over together so they go out in one transaction
 * (see `sendFromRelayer`); throws the first refusal once every send has its answer.
 */
export async function sendAuthorizations(
  ctx: ForwardingContext,
  prepared: readonly PreparedLeg[],
): Promise<void> {
  const sent = await Promise.allSettled(
    prepared.map((p) => sendFromRelayer(ctx.chain, p.request, p.record, { batch: true })),
  );
  for (const result of sent) if (result.status === 'rejected') throw result.reason;
}

/**
 * The leg's call for the relayer, signing (or re-signing) its authorization; null when its
 * recorded transaction is on its way. Note: for a leg whose authorization the caller found unused
 * (see `authorizationsUsed`).
 * Note: a new signature is saved with the transaction that carries it, before its broadcast: a
 * crash before that save leaves nothing on the chain, and the next pass signs again under the
 * same nonce (so the leg still pays once).
 */
export async function prepareAuthorization(
  ctx: ForwardingContext,
  account: LocalAccount,
  leg: LegRow,
): Promise<PreparedLeg | null> {
  const nonce = leg.authorizationNonce as Hex;
  // Note: a leg whose transaction reverted, or whose nonce went to another, is signed anew.
  if (await recordedTxOnItsWay(ctx, leg)) return null;
  const now = BigInt(Math.floor(Date.now() / 1000));
  const stored = leg.validBefore ? BigInt(leg.validBefore) : 0n;
  const kept = leg.signature && stored >= now + RESIGN_MARGIN_S ? (leg.signature as Hex) : null;
  const message: TransferAuthorization = {
    from: account.address,
    to: leg.toAddress as Address,
    value: BigInt(leg.value),
    validAfter: 0n,
    validBefore: kept ? stored : now + AUTHORIZATION_LIFETIME_S,
    nonce,
  };
  const signature =
    kept ?? (await signTransferAuthorization(account, ctx.chain.chainId, ctx.chain.token, message));
  const signed = kept ? undefined : { signature, validBefore: String(message.validBefore) };
  const data = transferWithAuthorizationData(message, signature);
  return {
    request: { to: ctx.chain.token, data },
    record: legTxRecord(ctx.db, { id: leg.id, signature }, 'sent', signed),
  };
}
