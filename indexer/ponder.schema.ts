// Indexer tables. Ponder names columns in snake_case: block_number, block_timestamp, tx_hash, log_index.
import { index, onchainTable } from 'ponder';

/** One USDC `Transfer` log. Addresses and hashes are stored as lowercase hex text. */
export const transfer = onchainTable(
  'transfer',
  (t) => ({
    /** Ponder's `event.id`: unique per log and stable across re-indexing. */
    id: t.text().primaryKey(),
    from: t.hex().notNull(),
    to: t.hex().notNull(),
    /** USDC base units (6 decimals), numeric(78,0) in Postgres. */
    value: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
    /** Unix seconds. */
    blockTimestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (table) => ({ toIndex: index('transfer_to_index').on(table.to) }),
);
