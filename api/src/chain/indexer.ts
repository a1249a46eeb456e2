// The one module that reads the indexer's Postgres: Ponder writes USDC transfers into the schema
// `indexer` (`ponder start --schema indexer`), and the API and the worker read them over their own
// connection. Every other file reads the indexer through what this one exports.
// - The transfer table is typed here with the API's drizzle, mirroring `indexer/ponder.schema.ts`
//   (api/test/indexer-adapter.test.ts checks it against the table Ponder really creates). Note:
//   not with Ponder's `setDatabaseSchema`: that takes Ponder's own drizzle (0.41), whose tables
//   do not type-check in the API's (0.45); and not in db/schema.ts, so drizzle-kit never
//   generates migrations for Ponder's tables.
// - Ponder offers nothing public for two facts the detection needs, so they are read here and
//   nowhere else: its checkpoint row (the indexed head, in the same snapshot as the transfers; its
//   HTTP `/status` is a second round trip and may be ahead of what a query sees) and the channel
//   on which it notifies each block it commits (its live queries' channel).
// Ponder stores addresses and hashes as lowercase hex text, uint256 values as numeric(78,0), and
// `id` as its checkpoint string (block timestamp, chain, block, tx index, log index), which sorts
// in chain order.
import { asc, eq, sql } from 'drizzle-orm';
import { integer, numeric, pgSchema, text } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.ts';

/** Schema the indexer writes to. */
export const INDEXER_SCHEMA = 'indexer';

const uint256 = (name: string) => numeric(name, { precision: 78, scale: 0, mode: 'bigint' });

/** One indexed USDC `Transfer` log (`indexer.transfer`). */
export const indexedTransfer = pgSchema(INDEXER_SCHEMA).table('transfer', {
  /** Ponder's event id: unique per log, sorts in chain order. */
  id: text('id').primaryKey(),
  from: text('from').notNull(),
  to: text('to').notNull(),
  /** USDC base units. */
  value: uint256('value').notNull(),
  blockNumber: uint256('block_number').notNull(),
  /** Unix seconds of the block. */
  blockTimestamp: uint256('block_timestamp').notNull(),
  txHash: text('tx_hash').notNull(),
  logIndex: integer('log_index').notNull(),
});

/** A transfer as read: value, block and time as exact integers. */
export type IndexedTransfer = typeof indexedTransfer.$inferSelect;

/**
 * Channel on which the indexer notifies each block it commits in realtime, `<schema>_live_query`
 * (the payload names the tables the block wrote). The detection loop wakes on it instead of
 * waiting for its next interval. Note: Ponder's own name; should a version change it, detection
 * falls back to its interval.
 */
export const INDEXER_BLOCK_CHANNEL = `${INDEXER_SCHEMA}_live_query`;

/** Every indexed transfer to `address` in chain order (the first `limit` when given). */
export async function transfersTo(
  db: Executor,
  address: string,
  limit?: number,
): Promise<IndexedTransfer[]> {
  const query = db
    .select()
    .from(indexedTransfer)
    .where(eq(indexedTransfer.to, address.toLowerCase()))
    .orderBy(asc(indexedTransfer.blockNumber), asc(indexedTransfer.logIndex));
  return limit === undefined ? query : query.limit(limit);
}

/** Where the indexer is: its latest processed block and its newest transfer id (null when none). */
export async function readIndexerPosition(
  db: Executor,
  chainId: number,
): Promise<{ headBlock: bigint | null; lastTransferId: string | null }> {
  // Note: the checkpoint encodes the block number at characters 27-42 (Ponder's checkpoint.js).
  // Note: the transfer table first. Postgres locks a statement's tables in the order it meets
  // them, and the indexer's reorg transaction takes its transfer table, then its checkpoint table
  // (dropping their triggers): read in the other order, the two deadlock and Postgres breaks the
  // tie only after its deadlock timeout (1 s), delaying every reorg by that much.
  const checkpoints = sql`${sql.identifier(INDEXER_SCHEMA)}.${sql.identifier('_ponder_checkpoint')}`;
  const [row] = await db.execute<{ head: string | null; last_id: string | null }>(sql`
    select
      (select max(${indexedTransfer.id}) from ${indexedTransfer}) as last_id,
      (select substring(latest_checkpoint from 27 for 16)::bigint::text
         from ${checkpoints} where chain_id = ${chainId}) as head`);
  return {
    headBlock: row?.head ? BigInt(row.head) : null,
    lastTransferId: row?.last_id ?? null,
  };
}
