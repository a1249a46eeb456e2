// Abandoned deposit addresses leave the detection's full pass once their window plus the grace
// period has passed, while a late payment to one is still caught: by the pass over new transfer
// rows, and by a worker's first pass for payments made while no worker ran. The indexer's tables
// are made here as Ponder makes them (as its role), with the rows a payment would leave.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type PaymentState, paymentPhase } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { eq } from 'drizzle-orm';
import postgres from 'postgres';
import { createDatabase } from '../src/db/client.ts';
import { orders, paymentEvents, paymentWallets } from '../src/db/schema.ts';
import {
  DETECTION_GRACE_MS,
  type DetectionCursor,
  runDetectionPass,
} from '../src/payments/detection.ts';
import { storeForm } from './support/client.ts';
import { STACK_TIMEOUT_MS } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner'] });
const CHAIN_ID = 31337;
const DAY_MS = 24 * 60 * 60 * 1000;
const settings = { chainId: CHAIN_ID, confirmations: 2 };
const HEAD = 100;

let indexer: postgres.Sql;
let worker: ReturnType<typeof createDatabase>;
let storeId: string;
let productId: string;
let nextLog = 0;

/** A Ponder checkpoint (timestamp, chain, block, tx index, event type, log index) for `block`. */
function checkpoint(block: number, log = 0): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(1_700_000_000 + block, 10)}${pad(CHAIN_ID, 16)}${pad(block, 16)}${pad(0, 16)}5${pad(log, 16)}`;
}

/** A transfer of `usdc` (2 decimals) to `to` mined at `block`, at chain time `minedAt`. */
async function indexTransfer(to: string, usdc: string, block: number, minedAt: Date) {
  nextLog += 1;
  await indexer`
    insert into indexer.transfer
      (id, "from", "to", value, block_number, block_timestamp, tx_hash, log_index)
    values (${checkpoint(block, nextLog)}, '0x0000000000000000000000000000000000000001',
      ${to.toLowerCase()}, ${Math.round(Number(usdc) * 1e6)}, ${block},
      ${Math.floor(minedAt.getTime() / 1000)},
      ${`0x${nextLog.toString(16).padStart(64, '0')}`}, ${nextLog})`;
}

/** A store order of 10.80 USDC with its deposit address; its window ended `expiredAgoMs` ago. */
async function walletExpired(expiredAgoMs: number, status: PaymentState = 'expired') {
  const order = await t.shopper.post('/api/orders', {
    storeId,
    ...customer,
    items: [{ productId, title: 'Mug', priceUsdc: '10.00', quantity: 1 }],
    subtotalUsdc: '10.00',
    shippingUsdc: '0.00',
    totalUsdc: '10.80',
  });
  const assigned = await t.shopper.post(`/api/orders/${order.body.id}/assign-payment-wallet`, {
    paymentChain: 'base',
  });
  const [wallet] = await t.testDb.database.db
    .update(paymentWallets)
    .set({ status, expiredAt: new Date(Date.now() - expiredAgoMs) })
    .where(eq(paymentWallets.orderId, order.body.id))
    .returning();
  if (!wallet || assigned.status !== 200) throw new Error('no wallet');
  return wallet;
}

/** One detection pass as the worker runs it, now. */
function pass(cursor: DetectionCursor, full: boolean, graceMs?: number) {
  return runDetectionPass(worker.db, { ...settings, graceMs }, cursor, new Date(), full);
}

/** How many wallets a full pass (not a worker's first) reads. */
async function fullPassReads(graceMs?: number): Promise<number> {
  return (await pass({ lastTransferId: '' }, true, graceMs)).candidates;
}

beforeAll(async () => {
  // What Ponder does at its start, as the indexer's role (the API and worker may read it).
  indexer = postgres(t.testDb.roleUrls.indexer, { max: 1, onnotice: () => {} });
  await indexer.unsafe(`
    create schema indexer;
    create table indexer.transfer (id text primary key, "from" text not null, "to" text not null,
      value numeric(78, 0) not null, block_number numeric(78, 0) not null,
      block_timestamp numeric(78, 0) not null, tx_hash text not null, log_index integer not null);
    create index transfer_to_index on indexer.transfer ("to");
    create table indexer._ponder_checkpoint (chain_name text primary key, chain_id bigint not null,
      latest_checkpoint text not null)`);
  await indexer`insert into indexer._ponder_checkpoint values ('anvil', ${CHAIN_ID}, ${checkpoint(HEAD)})`;
  worker = createDatabase(t.testDb.roleUrls.worker, { max: 2 });
  storeId = (await t.owner.api.post('/api/stores', storeForm())).body.id;
  productId = (
    await t.owner.api.post('/api/products', {
      storeId,
      title: 'Mug',
      priceUsdc: '10.00',
      inventory: 100,
    })
  ).body.id;
}, STACK_TIMEOUT_MS);

afterAll(async () => {
  await indexer?.end({ timeout: 1 });
  await worker?.close();
});

describe('the full pass', () => {
  test('reads unpaid wallets until the grace period after their window, then no more', async () => {
    const base = await fullPassReads();
    await walletExpired(DETECTION_GRACE_MS + DAY_MS);
    // Abandoned: not read any more.
    expect(await fullPassReads()).toBe(base);
    await walletExpired(DETECTION_GRACE_MS - DAY_MS);
    await walletExpired(-DAY_MS, 'waiting');
    expect(await fullPassReads()).toBe(base + 2);
    // Long expired, but its state changed lately (a late payment that a reorg then removed,
    // which may come back behind the cursor): read for the grace period after the change.
    const changed = await walletExpired(30 * DAY_MS);
    await t.testDb.database.db.insert(paymentEvents).values({
      walletId: changed.id,
      orderId: changed.orderId,
      fromStatus: 'detected',
      toStatus: 'expired',
      receivedAmountUsdc: '0',
    });
    expect(await fullPassReads()).toBe(base + 3);
    // The grace period is a setting: with none, only the open wallet is read.
    expect(await fullPassReads(0)).toBe(base + 1);
  });

  test('a late payment to an address abandoned long ago is still caught: paid late', async () => {
    const wallet = await walletExpired(60 * DAY_MS);
    const { cursor } = await pass({ lastTransferId: '' }, true);
    // The shopper pays the full amount two months late; the indexer adds the row.
    await indexTransfer(wallet.walletAddress, '10.80', HEAD - 5, new Date());
    const next = await pass(cursor, false);
    expect(
      next.changes.map((c) => [c.walletId, paymentPhase(c.after.state, c.after.exception)]),
    ).toEqual([[wallet.id, 'paid_late']]);
    const [order] = await t.testDb.database.db
      .select()
      .from(orders)
      .where(eq(orders.id, wallet.orderId));
    expect(order?.status).toBe('paid');
  });

  test('a part payment to an address abandoned long ago: underpaid', async () => {
    const wallet = await walletExpired(60 * DAY_MS);
    const { cursor } = await pass({ lastTransferId: '' }, true);
    await indexTransfer(wallet.walletAddress, '4.00', HEAD - 5, new Date());
    const next = await pass(cursor, false);
    expect(
      next.changes.map((c) => [c.walletId, paymentPhase(c.after.state, c.after.exception)]),
    ).toEqual([[wallet.id, 'underpaid']]);
  });

  test("a worker's first pass finds a payment made to an old address while no worker ran", async () => {
    const paid = await walletExpired(60 * DAY_MS);
    await walletExpired(60 * DAY_MS);
    const reads = await fullPassReads();
    await indexTransfer(paid.walletAddress, '10.80', HEAD - 5, new Date());
    // A worker starts: its first pass has no cursor.
    const first = await pass({ lastTransferId: null }, true);
    expect(
      first.changes.map((c) => [c.walletId, paymentPhase(c.after.state, c.after.exception)]),
    ).toEqual([[paid.id, 'paid_late']]);
    // The paid one besides what a full pass reads; not the old one nothing was sent to.
    expect(first.candidates).toBe(reads + 1);
  });
});
