// The API reads the indexer's Postgres through one module (src/chain/indexer.ts), on the real
// stack: Postgres, anvil (200 ms blocks) with Circle's USDC and the Ponder indexer. Its typed
// transfer table must be the table Ponder really creates (a renamed or retyped column would
// otherwise fail only at run time, in the middle of a payment), and its reads give a payment's
// transfer with exact values, the indexed head past it and a notification for its block.
import { describe, expect, test } from 'bun:test';
import { payUsdc } from '@store/stack/usdc';
import { getTableConfig } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import { parseUnits } from 'viem';
import {
  INDEXER_BLOCK_CHANNEL,
  INDEXER_SCHEMA,
  indexedTransfer,
  readIndexerPosition,
  transfersTo,
} from '../src/chain/indexer.ts';
import { useChainApi } from './support/chain-api.ts';
import { newMerchant, storeForm } from './support/client.ts';
import { orderOneMug } from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';

const t = useChainApi({ poolSize: 3 });

describe("the indexer's tables, read through one module", () => {
  test("the typed transfer table has Ponder's columns, types and nullability", async () => {
    const config = getTableConfig(indexedTransfer);
    expect(config.schema).toBe(INDEXER_SCHEMA);
    const rows = await t.database.db.$client<
      {
        column_name: string;
        data_type: string;
        numeric_precision: number | null;
        is_nullable: string;
      }[]
    >`select column_name, data_type, numeric_precision, is_nullable from information_schema.columns
      where table_schema = ${INDEXER_SCHEMA} and table_name = ${config.name}`;
    const actual = Object.fromEntries(rows.map((row) => [row.column_name, row]));
    // Every column Ponder made is typed here, and every typed one exists with its SQL type.
    expect(Object.keys(actual).sort()).toEqual(config.columns.map((column) => column.name).sort());
    for (const column of config.columns) {
      const real = actual[column.name];
      const type = column.getSQLType();
      expect({ column: column.name, type: real?.data_type }).toEqual({
        column: column.name,
        type: type.startsWith('numeric') ? 'numeric' : type,
      });
      if (type.startsWith('numeric')) expect(real?.numeric_precision).toBe(78);
      expect(real?.is_nullable).toBe(column.notNull ? 'NO' : 'YES');
    }
  });

  test("a payment's transfer reads back exact, below the indexed head, with its block notified", async () => {
    const owner = await newMerchant(t.app, 'seller');
    const store = (await owner.api.post('/api/stores', storeForm())).body;
    const { orderId } = await orderOneMug(owner, t.shopper, store.id);
    const { paymentWallet } = (
      await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, { paymentChain: 'base' })
    ).body;
    const listener = postgres(t.stack.databaseUrls.api, { max: 1 });
    const notified: string[] = [];
    await listener.listen(INDEXER_BLOCK_CHANNEL, (payload) => notified.push(payload));
    try {
      const paid = await payUsdc(t.stack.env, 1, paymentWallet.address, parseUnits('10.80', 6));
      const [transfer] = await waitUntil(async () => {
        const found = await transfersTo(t.database.db, paymentWallet.address.toUpperCase());
        return found.length > 0 ? found : undefined;
      }, 'the indexed transfer');
      expect(transfer).toMatchObject({
        to: paymentWallet.address.toLowerCase(),
        value: 10_800_000n,
        blockNumber: paid.blockNumber,
        txHash: paid.hash,
      });
      const { headBlock, lastTransferId } = await readIndexerPosition(
        t.database.db,
        Number(t.stack.env.CHAIN_ID),
      );
      expect(headBlock).toBeGreaterThanOrEqual(paid.blockNumber);
      expect((lastTransferId ?? '') >= (transfer?.id ?? '~')).toBe(true);
      await waitUntil(() => notified.length > 0, "the indexer's block notification");
    } finally {
      await listener.end();
    }
  });
});
