// The indexer keeps only the transfers of our business, on the real stack: Postgres, anvil (200 ms
// blocks) with Circle's USDC, Ponder, the API and the worker's loops. With the watch feed
// (migration 0016_indexer_watch_feed) a transfer between strangers leaves no row, while payments (also in
// the very block after their wallet was assigned, with no spare addresses derived), forwarding legs
// and merchant-wallet refunds are indexed, detected, forwarded and matched as before; a kept row
// leaves with its block in a reorg, and a re-index from the start block keeps them again. A second
// indexer with INDEXER_ALL_TRANSFERS=true keeps the stranger's transfer too.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type Indexer, startIndexer } from '@store/stack/indexer';
import { freePort } from '@store/stack/ports';
import { localAccount, payUsdc } from '@store/stack/usdc';
import { and, eq } from 'drizzle-orm';
import postgres from 'postgres';
import { type Address, createPublicClient, getAddress, type Hash, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { readIndexerPosition } from '../src/chain/indexer.ts';
import { loadWorkerConfig } from '../src/config.ts';
import { forwardingTransfers, refunds } from '../src/db/schema.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { newMerchant, storeForm } from './support/client.ts';
import { orderOneMug, waitForForwarded, waitForPayment, walletOf } from './support/payments.ts';
import { waitUntil, webhookReceiver } from './support/settlement.ts';

// Note: no spare deposit addresses: a payment is only kept if the indexer read the highest
// assigned index in the block that carries it. The stack reads it from this process's environment
// when it starts the indexer; put back afterwards, as other test files share the process.
const gapBefore = process.env.INDEXER_ADDRESS_GAP;
beforeAll(() => {
  process.env.INDEXER_ADDRESS_GAP = '0';
});
const restoreGap = () => {
  if (gapBefore === undefined) delete process.env.INDEXER_ADDRESS_GAP;
  else process.env.INDEXER_ADDRESS_GAP = gapBefore;
};

const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

const receiver = webhookReceiver();
const t = useChainApi({
  confirmations: 2,
  poolSize: 6,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({
        ...stack.env,
        CONFIRMATIONS: '2',
        FORWARDING_RETRY_BASE_MS: '100',
        WEBHOOK_RETRY_BASE_MS: '100',
      }),
      database.db,
      { log: () => {} },
    ),
});
let admin: postgres.Sql;
let allIndexer: Indexer | undefined;
/** A transfer between two strangers, sent once the filter is on. */
let stranger: { hash: Hash; blockNumber: bigint } | undefined;

afterAll(async () => {
  restoreGap();
  await allIndexer?.stop();
  await admin?.end({ timeout: 5 });
  receiver.stop();
});

/** Indexed rows of a transaction, once the indexer has processed its block. */
async function rowsOf(
  tx: { hash: string; blockNumber: bigint },
  schema = 'indexer',
): Promise<Array<{ from: string; to: string; value: string }>> {
  const chainId = Number(t.stack.env.CHAIN_ID);
  await waitUntil(async () => {
    const head = await admin<{ head: string | null }[]>`
      select substring(latest_checkpoint from 27 for 16)::bigint::text as head
      from ${admin(schema)}._ponder_checkpoint where chain_id = ${chainId}`;
    return BigInt(head[0]?.head ?? '0') >= tx.blockNumber;
  }, `the indexer (${schema}) at block ${tx.blockNumber}`);
  return admin`
    select "from", "to", value::text from ${admin(schema)}.transfer
    where tx_hash = ${tx.hash.toLowerCase()} order by log_index`;
}

beforeAll(async () => {
  restoreGap();
  admin = postgres(t.stack.adminDatabaseUrl, { max: 2, onnotice: () => {} });
  // The indexer reads the feed at its next block; until then it keeps every transfer.
  stranger = await waitUntil(
    async () => {
      const sent = await payUsdc(t.stack.env, 2, freshAddress(), usdc('0.01'));
      return (await rowsOf(sent)).length === 0 && sent;
    },
    'the indexer to keep only our transfers',
    30_000,
  );
}, 60_000);

describe('by default the indexer', () => {
  test('keeps no row of a transfer between strangers', async () => {
    expect(stranger).toBeDefined();
    const again = await payUsdc(t.stack.env, 3, freshAddress(), usdc('0.02'));
    expect(await rowsOf(again)).toEqual([]);
    // Detection still moves on: the indexer's head passes the blocks it kept nothing of.
    const { headBlock } = await readIndexerPosition(t.database.db, Number(t.stack.env.CHAIN_ID));
    expect(headBlock).not.toBeNull();
    expect(headBlock ?? 0n).toBeGreaterThanOrEqual(again.blockNumber);
  });

  test('keeps a payment mined in the block right after its wallet was assigned, and its forwarding legs', async () => {
    const owner = await newMerchant(t.app, 'keeps');
    const payout = freshAddress();
    const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
    const { orderId } = await orderOneMug(owner, t.shopper, store.id);
    const assigned = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
      paymentChain: 'base',
    });
    const deposit = assigned.body.paymentWallet.address as Address;
    // At once: anvil mines it in the next block (200 ms), with a stranger's transfer beside it.
    const [payment, beside] = await Promise.all([
      payUsdc(t.stack.env, 1, deposit, usdc('10.80')),
      payUsdc(t.stack.env, 3, freshAddress(), usdc('0.03')),
    ]);
    expect(await rowsOf(payment)).toEqual([
      {
        from: getAddress(localAccount(1).address).toLowerCase(),
        to: deposit.toLowerCase(),
        value: usdc('10.80').toString(),
      },
    ]);
    expect(await rowsOf(beside)).toEqual([]);
    await waitForPayment(t.shopper, orderId, (s) => s.paymentDetected);

    // The worker forwards it: the merchant and fee legs leave the deposit address, both indexed.
    const wallet = await waitForForwarded(t.database.db, orderId);
    const legs = await t.database.db
      .select()
      .from(forwardingTransfers)
      .where(eq(forwardingTransfers.walletId, wallet.id));
    const usdcLegs = legs.filter((leg) => leg.leg !== 'gas');
    expect(usdcLegs.map((leg) => leg.leg).sort()).toEqual(['fee', 'merchant']);
    // Note: a round's legs go out in one relayer transaction (a batch): its rows are both legs.
    const txs = new Map(usdcLegs.map((leg) => [leg.txHash ?? '', BigInt(leg.blockNumber ?? 0)]));
    const rows = (
      await Promise.all([...txs].map(([hash, blockNumber]) => rowsOf({ hash, blockNumber })))
    ).flat();
    const byTo = (a: { to: string }, b: { to: string }) => a.to.localeCompare(b.to);
    expect(rows.sort(byTo)).toEqual(
      usdcLegs
        .map((leg) => ({
          from: deposit.toLowerCase(),
          to: leg.toAddress.toLowerCase(),
          value: leg.value,
        }))
        .sort(byTo),
    );
  }, 60_000);

  test('keeps a merchant-wallet refund (payout to the confirmed address), not the payout wallet’s other transfers', async () => {
    const owner = await newMerchant(t.app, 'refund');
    const payout = getAddress(localAccount(7).address);
    const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
    const { orderId, buyerToken } = await orderOneMug(owner, t.shopper, store.id);
    const deposit = (
      await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, { paymentChain: 'base' })
    ).body.paymentWallet.address as Address;
    await payUsdc(t.stack.env, 4, deposit, usdc('10.80'));
    await waitForForwarded(t.database.db, orderId);

    const created = await owner.api.post(`/api/orders/${orderId}/refunds`, { amount: '4.00' });
    expect(created.status).toBe(200);
    // The payer confirms its address on the order's page (that link confirms the paying one).
    const refundTo = getAddress(localAccount(4).address);
    const [claim] = (
      await t.shopper.get(`/api/orders/${orderId}/refund-claims`, {
        headers: { 'x-buyer-token': buyerToken },
      })
    ).body;
    const token = String(claim.claimPath).replace('/refund/', '');
    expect(
      (await t.shopper.post(`/api/refund-claims/${token}`, { address: refundTo })).status,
    ).toBe(200);
    // The payout wallet pays someone else first: that is the merchant's business, not ours.
    const elsewhere = await payUsdc(t.stack.env, 7, freshAddress(), usdc('1.00'));
    const sent = await payUsdc(t.stack.env, 7, refundTo, usdc('4.00'));
    expect(await rowsOf(elsewhere)).toEqual([]);
    expect(await rowsOf(sent)).toEqual([
      { from: payout.toLowerCase(), to: refundTo.toLowerCase(), value: usdc('4.00').toString() },
    ]);
    // The worker matches it on chain (the merchant did not even report its hash).
    const done = await waitUntil(async () => {
      const [row] = await t.database.db
        .select()
        .from(refunds)
        .where(and(eq(refunds.orderId, orderId), eq(refunds.status, 'refunded')));
      return row;
    }, 'the merchant refund to be matched');
    expect(done.txHash).toBe(sent.hash);
    expect((await walletOf(t.database.db, orderId)).status).not.toBe('waiting');
  }, 60_000);
});

test('a kept payment follows its block through a reorg: gone with it, kept again when mined again', async () => {
  const owner = await newMerchant(t.app, 'reorg');
  const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: freshAddress() })))
    .body;
  const { orderId } = await orderOneMug(owner, t.shopper, store.id);
  const deposit = (
    await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, { paymentChain: 'base' })
  ).body.paymentWallet.address as Address;
  // Less than the total: the order waits (nothing is forwarded while the block is replaced).
  const payment = await payUsdc(t.stack.env, 5, deposit, usdc('1.00'));
  expect(await rowsOf(payment)).toHaveLength(1);
  const chain = createPublicClient({ chain: foundry, transport: http(t.stack.env.RPC_URL) });
  const head = await chain.getBlockNumber();
  // Replaces the payment's block and those after it with empty ones (anvil drops their transactions).
  await chain.request({
    method: 'anvil_reorg' as never,
    params: [Number(head - payment.blockNumber) + 1, []] as never,
  });
  await waitUntil(async () => {
    const [row] = await admin<{ n: number }[]>`
      select count(*)::int as n from indexer.transfer where tx_hash = ${payment.hash.toLowerCase()}`;
    return row?.n === 0;
  }, 'the row of the reorged payment to go');
  const again = await payUsdc(t.stack.env, 5, deposit, usdc('1.00'));
  expect(await rowsOf(again)).toHaveLength(1);
}, 60_000);

/** Another indexer of the same chain from the start block, into its own schema. */
async function secondIndexer(schema: string, allTransfers: boolean) {
  const env = t.stack.env;
  return startIndexer({
    databaseUrl: t.stack.databaseUrls.indexer,
    rpcUrl: env.RPC_URL,
    wsUrl: env.WS_URL || undefined,
    chainId: Number(env.CHAIN_ID),
    usdcAddress: env.USDC_ADDRESS,
    startBlock: BigInt(env.USDC_START_BLOCK),
    port: await freePort(),
    schema,
    paymentXpub: env.PAYMENT_XPUB,
    allTransfers,
  });
}

describe('with INDEXER_ALL_TRANSFERS=true', () => {
  test('a second indexer keeps every transfer, the strangers’ too', async () => {
    allIndexer = await secondIndexer('indexer_all', true);
    if (!stranger) throw new Error('no stranger transfer was sent');
    const rows = await rowsOf(stranger, 'indexer_all');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.from).toBe(getAddress(localAccount(2).address).toLowerCase());
    const kept = await admin<{ n: number }[]>`select count(*)::int as n from indexer.transfer`;
    const all = await admin<{ n: number }[]>`select count(*)::int as n from indexer_all.transfer`;
    expect(all[0]?.n ?? 0).toBeGreaterThan(kept[0]?.n ?? 0);
    await allIndexer.stop();
    allIndexer = undefined;
  }, 90_000);
});

test('a re-index from the start block keeps every payment and leg of our deposit addresses again, and no stranger', async () => {
  allIndexer = await secondIndexer('indexer_again', false);
  if (!stranger) throw new Error('no stranger transfer was sent');
  expect(await rowsOf(stranger, 'indexer_again')).toEqual([]);
  // Every row of the running indexer that touches one of our deposit addresses is there again.
  const ours = (schema: string) => admin<{ id: string }[]>`
    select t.id from ${admin(schema)}.transfer t
    where exists (select from payment_wallets w
      where lower(w.wallet_address) in (t."to", t."from"))
    order by t.id`;
  const before = await ours('indexer');
  expect(before.length).toBeGreaterThanOrEqual(6);
  expect(await ours('indexer_again')).toEqual(before);
}, 90_000);
