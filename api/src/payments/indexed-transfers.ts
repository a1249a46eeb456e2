// Reads of the indexer's tables (Ponder, Postgres schema `indexer`) over the API's own connection.
// Note: raw SQL, not a drizzle table: drizzle-kit must never generate migrations for Ponder's
// tables. Ponder stores addresses and hashes as lowercase hex text and `id` as its checkpoint
// string (block timestamp, chain, block, tx index, log index), which sorts in chain order.
import type { DepositObservation, DepositTransfer } from '@store/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';

/** Schema the indexer writes to (`ponder start --schema indexer`). */
export const INDEXER_SCHEMA = 'indexer';

/** `indexer.<table>` as an SQL identifier. */
export const indexerTable = (table: string): SQL =>
  sql`${sql.identifier(INDEXER_SCHEMA)}.${sql.identifier(table)}`;

/** A transfer row as text columns (numerics and bigints stay exact as strings). */
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

/** Where the indexer is: its latest processed block and its newest transfer id (null when none). */
export async function readIndexerPosition(
  db: Database,
  chainId: number,
): Promise<{ headBlock: bigint | null; lastTransferId: string | null }> {
  // Note: the checkpoint encodes the block number at characters 27-42 (see Ponder's checkpoint.js).
  // Note: the transfer table first. Postgres locks a statement's tables in the order it meets
  // them, and the indexer's reorg transaction takes its transfer table, then its checkpoint table
  // (dropping their triggers): read in the other order, the two deadlock and Postgres breaks the
  // tie only after its deadlock timeout (1 s), delaying every reorg by that much.
  const [row] = await db.execute<{ head: string | null; last_id: string | null }>(sql`
    select
      (select max(id) from ${indexerTable('transfer')}) as last_id,
      (select substring(latest_checkpoint from 27 for 16)::bigint::text
         from ${indexerTable('_ponder_checkpoint')} where chain_id = ${chainId}) as head`);
  return {
    headBlock: row?.head ? BigInt(row.head) : null,
    lastTransferId: row?.last_id ?? null,
  };
}

/** Every indexed transfer to `address` in chain order, with the indexed head: one observation. */
export async function observeDepositAddress(
  db: Database,
  chainId: number,
  address: string,
): Promise<DepositObservation | null> {
  const [position, rows] = await Promise.all([
    readIndexerPosition(db, chainId),
    db.execute<TransferRow>(sql`
      select value::text, block_number::text, block_timestamp::text, tx_hash
      from ${indexerTable('transfer')} where "to" = ${address.toLowerCase()}
      order by block_number, log_index`),
  ]);
  if (position.headBlock === null) return null;
  return { headBlock: position.headBlock, transfers: rows.map(toDepositTransfer) };
}
