// A deposit address as the payment state machine sees it, from the indexer's transfers (read
// through chain/indexer.ts, the one module that reads the indexer's tables).
import type { DepositObservation, DepositTransfer } from '@store/shared';
import { readIndexerPosition, transfersTo } from '../chain/indexer.ts';
import type { Database } from '../db/client.ts';

/** A transfer row of a raw query as text columns (numerics and bigints stay exact as strings). */
export type TransferRow = {
  value: string;
  block_number: string;
  block_timestamp: string;
  tx_hash: string;
};

/** Converts a row to the state machine's transfer. */
export function toDepositTransfer(row: TransferRow): DepositTransfer {
  return {
    value: BigInt(row.value),
    blockNumber: BigInt(row.block_number),
    blockTimestamp: BigInt(row.block_timestamp),
    txHash: row.tx_hash,
  };
}

/** Every indexed transfer to `address` in chain order, with the indexed head: one observation. */
export async function observeDepositAddress(
  db: Database,
  chainId: number,
  address: string,
): Promise<DepositObservation | null> {
  const [position, transfers] = await Promise.all([
    readIndexerPosition(db, chainId),
    transfersTo(db, address),
  ]);
  if (position.headBlock === null) return null;
  return {
    headBlock: position.headBlock,
    transfers: transfers.map((transfer) => ({
      value: transfer.value,
      blockNumber: transfer.blockNumber,
      blockTimestamp: transfer.blockTimestamp,
      txHash: transfer.txHash,
    })),
  };
}
