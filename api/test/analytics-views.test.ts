// The analytics views on the real stack: orders paid on anvil (exact, under then completed, over,
// late, universal and store), the worker forwarding them, and what an analyst reads through
// `analytics.payments`, `analytics.settlements` and `analytics.daily_volume` as the read-only
// role, compared with the chain's receipts and logs to the base unit.
import { afterAll, describe, expect, test } from 'bun:test';
import { splitFee } from '@store/shared';
import { localAccount, payUsdc } from '@store/stack/usdc';
import postgres from 'postgres';
import {
  type Address,
  createPublicClient,
  type Hash,
  http,
  parseEventLogs,
  parseUnits,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { usdcAbi } from '../src/chain/usdc-abi.ts';
import { loadWorkerConfig } from '../src/config.ts';
import { retentionConfig, runRetention } from '../src/retention/retention-job.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { newMerchant, storeForm } from './support/client.ts';
import { orderOneMug, payableUniversalOrder } from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

const t = useChainApi({
  confirmations: 2,
  poolSize: 4,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({ ...stack.env, CONFIRMATIONS: '2', FORWARDING_RETRY_BASE_MS: '100' }),
      database.db,
      { log: () => {}, retention: { ...retentionConfig({}), intervalMs: 86_400_000 } },
    ),
});
let analystSql: postgres.Sql | undefined;
const analyst = () => {
  analystSql ??= postgres(t.stack.databaseUrls.analyst, { max: 2, onnotice: () => {} });
  return analystSql;
};
afterAll(async () => {
  await analystSql?.end({ timeout: 5 });
});

/** The USDC Transfer logs of a transaction, with its block's time, read from the chain. */
async function chainTransfers(hash: Hash) {
  const client = createPublicClient({ transport: http(t.stack.env.RPC_URL) });
  const receipt = await client.getTransactionReceipt({ hash });
  const block = await client.getBlock({ blockNumber: receipt.blockNumber });
  const logs = parseEventLogs({ abi: usdcAbi, logs: receipt.logs, eventName: 'Transfer' });
  return logs.map((log) => ({
    from: (log.args as { from: Address }).from.toLowerCase(),
    to: (log.args as { to: Address }).to.toLowerCase(),
    value: (log.args as { value: bigint }).value,
    logIndex: log.logIndex,
    blockTime: Number(block.timestamp),
  }));
}

interface PaymentRow {
  block_time: Date;
  tx_hash: string;
  log_index: number;
  payer: string;
  deposit_address: string;
  amount_usdc: string;
  amount_base_units: string;
  order_id: string;
  store_id: string | null;
  store_name: string | null;
  is_universal: boolean;
  external_order_id: string | null;
  expected_amount_usdc: string;
  classification: string;
}

interface SettlementRow {
  order_id: string;
  leg: string;
  to_address: string;
  amount_base_units: string;
  tx_hash: string;
  mined_at: Date | null;
  mode: string;
  gas_cost_eth: string | null;
}

const paymentsOf = (orderIds: string[]) =>
  analyst()<PaymentRow[]>`
    select * from analytics.payments where order_id = any(${orderIds}::uuid[])
    order by block_number, log_index`;

const settledLegs = (orderIds: string[], count: number) =>
  waitUntil(
    async () => {
      const rows = await analyst()<SettlementRow[]>`
        select * from analytics.settlements where order_id = any(${orderIds}::uuid[])
          and mined_at is not null and status = 'confirmed' order by order_id, leg`;
      return rows.length >= count && rows;
    },
    `${count} indexed legs`,
    30_000,
  );

describe('analytics views on the real chain', () => {
  test('payments, settlements and daily volume agree with the chain to the base unit', async () => {
    const owner = await newMerchant(t.app, 'views');
    const payout = freshAddress();
    const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
    const assign = async (orderId: string) =>
      (
        await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
          paymentChain: 'base',
        })
      ).body.paymentWallet.address as Address;
    // Store orders of 10.80: exact; under (4.00) then completed (6.80); over (12.00).
    const exact = (await orderOneMug(owner, t.shopper, store.id)).orderId;
    const split = (await orderOneMug(owner, t.shopper, store.id)).orderId;
    const over = (await orderOneMug(owner, t.shopper, store.id)).orderId;
    const [exactAddress, splitAddress, overAddress] = await Promise.all(
      [exact, split, over].map(assign),
    );
    // A universal order of 3.00, and one whose 1-second window closed before it was paid.
    const universal = await payableUniversalOrder(t.shopper, { total: '3.00', payout });
    const late = await payableUniversalOrder(t.appWithWindow(1), { total: '2.00', payout });
    await Bun.sleep(1500);

    const paid = [
      { order: exact, from: 1, to: exactAddress, amount: '10.80', expect: 'exact' },
      { order: split, from: 2, to: splitAddress, amount: '4.00', expect: 'under' },
      { order: split, from: 3, to: splitAddress, amount: '6.80', expect: 'exact' },
      { order: over, from: 4, to: overAddress, amount: '12.00', expect: 'over' },
      { order: universal.orderId, from: 5, to: universal.address, amount: '3.00', expect: 'exact' },
      { order: late.orderId, from: 6, to: late.address, amount: '2.00', expect: 'late' },
    ];
    const hashes: Hash[] = [];
    for (const p of paid) {
      hashes.push((await payUsdc(t.stack.env, p.from, p.to as Address, usdc(p.amount))).hash);
    }
    const orderIds = [exact, split, over, universal.orderId, late.orderId];
    const rows = await waitUntil(
      async () => {
        const found = await paymentsOf(orderIds);
        return found.length === paid.length && found;
      },
      'six indexed payments',
      20_000,
    );

    // Each row is the chain's transfer, with its order's meaning.
    for (const [i, p] of paid.entries()) {
      const row = rows.find((r) => r.tx_hash === hashes[i]);
      const [onChain] = await chainTransfers(hashes[i] as Hash);
      expect(row, p.amount).toBeDefined();
      expect(onChain).toBeDefined();
      expect({
        payer: row?.payer,
        deposit: row?.deposit_address,
        base: row?.amount_base_units,
        usdc: row?.amount_usdc,
        logIndex: row?.log_index ?? -2,
        time: (row?.block_time.getTime() ?? 0) / 1000,
        order: row?.order_id,
        classification: row?.classification,
      }).toEqual({
        payer: localAccount(p.from).address.toLowerCase(),
        deposit: onChain?.to,
        base: String(onChain?.value),
        usdc: `${p.amount}0000`,
        logIndex: onChain?.logIndex ?? -1,
        time: onChain?.blockTime ?? -1,
        order: p.order,
        classification: p.expect,
      });
      const isStore = [exact, split, over].includes(p.order);
      expect(row?.store_id).toBe(isStore ? store.id : null);
      expect(row?.store_name).toBe(isStore ? store.name : null);
      expect(row?.is_universal).toBe(!isStore);
      expect(row?.expected_amount_usdc).toBe(
        p.order === universal.orderId
          ? '3.000000'
          : p.order === late.orderId
            ? '2.000000'
            : '10.800000',
      );
    }
    expect(rows.find((r) => r.order_id === universal.orderId)?.external_order_id).toMatch(/^ext-/);

    // Forwarding: a merchant and a fee leg per paid order, matching the chain's transfers.
    const storeOrders = [exact, split, over];
    const legs = await settledLegs(storeOrders, 6);
    for (const leg of legs) {
      const transfers = await chainTransfers(leg.tx_hash as Hash);
      expect(
        transfers.some((x) => x.to === leg.to_address && String(x.value) === leg.amount_base_units),
      ).toBe(true);
      expect(leg.mode).toBe('eip3009');
      // Note: the gas of the relayer's transaction (anvil's may cost 0 wei).
      expect(leg.gas_cost_eth).toMatch(/^\d+\.\d{18}$/);
    }
    // The over order forwards its total only (the excess waits for the payer's refund).
    const { merchant, fee } = splitFee(usdc('10.80'));
    for (const order of storeOrders) {
      const own = legs.filter((l) => l.order_id === order);
      expect(own.map((l) => `${l.leg}:${l.amount_base_units}:${l.to_address}`).sort()).toEqual(
        [
          `fee:${fee}:${(t.stack.env.TREASURY_ADDRESS as string).toLowerCase()}`,
          `merchant:${merchant}:${payout.toLowerCase()}`,
        ].sort(),
      );
    }

    // Daily volume of the store: its four payments from four payers, gross, net and fees.
    const [day] = await analyst()<
      {
        payments: string;
        distinct_payers: string;
        gross_usdc: string;
        merchant_net_usdc: string;
        fees_usdc: string;
        median_settlement_seconds: string | null;
      }[]
    >`select * from analytics.daily_volume where store_id = ${store.id}`;
    expect(day).toMatchObject({
      payments: '4',
      distinct_payers: '4',
      gross_usdc: '33.600000',
      merchant_net_usdc: `${(Number(merchant * 3n) / 1e6).toFixed(6)}`,
      fees_usdc: `${(Number(fee * 3n) / 1e6).toFixed(6)}`,
    });
    expect(Number(day?.median_settlement_seconds)).toBeGreaterThanOrEqual(0);
    expect(Number(day?.median_settlement_seconds)).toBeLessThan(60);
    // Universal orders form their own row (store_id null), here with others' universal orders.
    const [universalDay] = await analyst()<{ gross: string }[]>`
      select sum(gross_usdc)::text as gross from analytics.daily_volume where is_universal`;
    expect(Number(universalDay?.gross)).toBeGreaterThanOrEqual(5);
  }, 90_000);
});

/** GET as the merchant with `cookie`: status, content type, disposition and raw text. */
async function raw(path: string, cookie?: string) {
  const response = await t.app.handle(
    new Request(`http://localhost${path}`, { headers: cookie ? { cookie } : {} }),
  );
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    disposition: response.headers.get('content-disposition') ?? '',
    text: await response.text(),
  };
}

/** Parses RFC 4180 CSV (quoted fields, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('the accounting export of a store', () => {
  test('its CSV and JSON list each payment in and each leg out, and reconcile with the chain to the base unit', async () => {
    const owner = await newMerchant(t.app, 'books');
    const payout = freshAddress();
    const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
    const one = (await orderOneMug(owner, t.shopper, store.id)).orderId;
    const two = (await orderOneMug(owner, t.shopper, store.id)).orderId;
    const addressOf = async (orderId: string) =>
      (
        await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
          paymentChain: 'base',
        })
      ).body.paymentWallet.address as Address;
    const [oneAddress, twoAddress] = await Promise.all([addressOf(one), addressOf(two)]);
    // 10.80 at once; 10.80 in two transfers (3.333333 and 7.466667, base units that split oddly).
    await payUsdc(t.stack.env, 7, oneAddress, usdc('10.80'));
    await payUsdc(t.stack.env, 8, twoAddress, 3_333_333n);
    await payUsdc(t.stack.env, 8, twoAddress, 7_466_667n);
    await settledLegs([one, two], 4);

    const today = new Date().toISOString().slice(0, 10);
    const csv = await raw(
      `/api/stores/${store.id}/money-movements/csv?from=${today}&to=${today}`,
      owner.cookie,
    );
    expect(csv.status).toBe(200);
    expect(csv.type).toContain('text/csv');
    expect(csv.disposition).toBe(
      `attachment; filename="${store.slug}-money-movements-${today}-to-${today}.csv"`,
    );
    const [header, ...rows] = parseCsv(csv.text);
    expect(header).toEqual([
      'Time (UTC)',
      'Type',
      'Direction',
      'Order ID',
      'External Order ID',
      'Transaction',
      'Log Index',
      'From',
      'To',
      'Amount (USDC)',
      'Amount (base units)',
      'Classification',
      'Discount Code',
      'Discount (USDC)',
      'Shipping (USDC)',
      'Tax (USDC)',
      'Tax Included',
    ]);
    // A payment row carries its order's discount (none here: 0.00), shipping and tax (free and 8%
    // of 10.00, added), a leg's row none.
    for (const row of rows)
      expect(row.slice(12)).toEqual(
        row[1] === 'payment' ? ['', '0.00', '0.00', '0.80', 'no'] : ['', '', '', '', ''],
      );
    expect(rows.map((r) => r[1]).sort()).toEqual(
      ['payment', 'payment', 'payment', 'merchant', 'merchant', 'fee', 'fee'].sort(),
    );
    // Oldest first.
    const times = rows.map((r) => Date.parse(r[0] ?? ''));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    const client = createPublicClient({ transport: http(t.stack.env.RPC_URL) });
    for (const order of [one, two]) {
      const own = rows.filter((r) => r[3] === order);
      const total = (type: string) =>
        own.filter((r) => r[1] === type).reduce((sum, r) => sum + BigInt(r[10] ?? ''), 0n);
      // Received = merchant + fee, to the base unit.
      expect(total('payment')).toBe(usdc('10.80'));
      expect(total('merchant') + total('fee')).toBe(total('payment'));
      expect(total('fee')).toBe(splitFee(usdc('10.80')).fee);
      // Every row is a transfer of its transaction on chain, same parties, same amount.
      for (const r of own) {
        const transfers = await chainTransfers(r[5] as Hash);
        expect(
          transfers.some((x) => x.from === r[7] && x.to === r[8] && String(x.value) === r[10]),
          JSON.stringify(r),
        ).toBe(true);
        const receipt = await client.getTransactionReceipt({ hash: r[5] as Hash });
        const block = await client.getBlock({ blockNumber: receipt.blockNumber });
        expect(Date.parse(r[0] ?? '') / 1000).toBe(Number(block.timestamp));
        expect(r[9]).toBe((Number(r[10]) / 1e6).toFixed(6));
      }
      expect(
        own.filter((r) => r[1] === 'merchant').every((r) => r[8] === payout.toLowerCase()),
      ).toBe(true);
    }
    expect(rows.filter((r) => r[3] === two && r[1] === 'payment').map((r) => r[11])).toEqual([
      'under',
      'exact',
    ]);

    // The JSON holds the same movements.
    const json = await owner.api.get(
      `/api/stores/${store.id}/money-movements?from=${today}&to=${today}`,
    );
    expect(json.status).toBe(200);
    expect(
      json.body.map((m: { txHash: string; type: string; amountBaseUnits: string }) =>
        [m.txHash, m.type, m.amountBaseUnits].join(),
      ),
    ).toEqual(rows.map((r) => [r[5], r[1], r[10]].join()));
    expect(json.body[0]).toMatchObject({ direction: expect.stringMatching(/^(in|out)$/) });

    // A range without movements: the header alone, an empty array.
    const past = await raw(
      `/api/stores/${store.id}/money-movements/csv?from=2020-01-01&to=2020-12-31`,
      owner.cookie,
    );
    expect(parseCsv(past.text)).toEqual([header ?? []]);
    expect(
      (await owner.api.get(`/api/stores/${store.id}/money-movements?from=2020-01-01`)).body,
    ).toEqual([]);
  }, 90_000);

  test('another merchant gets 404, an anonymous client 401, a bad range 422 with its reason', async () => {
    const owner = await newMerchant(t.app, 'books-owner');
    const other = await newMerchant(t.app, 'books-other');
    const store = (await owner.api.post('/api/stores', storeForm())).body;
    for (const path of [
      `/api/stores/${store.id}/money-movements`,
      `/api/stores/${store.id}/money-movements/csv`,
      `/api/stores/${store.id}/analytics/daily`,
    ]) {
      const refused = await other.api.get(path);
      expect(refused.status, path).toBe(404);
      expect(JSON.stringify(refused.body)).not.toContain(store.name);
      expect((await t.shopper.get(path)).status, path).toBe(401);
    }
    expect((await t.shopper.get('/api/analytics/daily')).status).toBe(401);
    const bad = async (query: string) => {
      const response = await owner.api.get(`/api/stores/${store.id}/money-movements${query}`);
      expect(response.status, query).toBe(422);
      expect(JSON.stringify(response.body)).not.toMatch(/\.ts:\d+/);
      return response.body.error.message as string;
    };
    expect(await bad('?from=2026-02-01&to=2026-01-01')).toContain('from must be on or before to');
    expect(await bad('?from=2020-01-01&to=2026-01-01')).toContain('at most 731 days');
    expect(await bad('?from=2026-02-30')).toContain('from is not a date');
    expect(await bad(`?to=${'9'.repeat(5000)}`)).toContain('to must be a date');
    const days = await owner.api.get(`/api/stores/${store.id}/analytics/daily?days=400`);
    expect(days.status).toBe(422);
    expect(days.body.error.message).toContain('days must be a whole number from 1 to 366');
  });

  test("the charts' series: every day present, the store's figures and the merchant's together", async () => {
    const owner = await newMerchant(t.app, 'charts');
    const payout = freshAddress();
    const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
    const second = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout })))
      .body;
    const orderIn = async (storeId: string) => {
      const { orderId } = await orderOneMug(owner, t.shopper, storeId);
      const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
        paymentChain: 'base',
      });
      await payUsdc(t.stack.env, 9, wallet.body.paymentWallet.address, usdc('10.80'));
      return orderId;
    };
    const orderIds = [await orderIn(store.id), await orderIn(second.id)];
    await settledLegs(orderIds, 4);
    const series = await owner.api.get(`/api/stores/${store.id}/analytics/daily?days=7`);
    expect(series.status).toBe(200);
    expect(series.body.days).toHaveLength(7);
    const today = new Date().toISOString().slice(0, 10);
    expect(series.body.to).toBe(today);
    const { merchant, fee } = splitFee(usdc('10.80'));
    expect(series.body.days.at(-1)).toEqual({
      day: today,
      orders: 1,
      payments: 1,
      grossUsdc: '10.800000',
      merchantNetUsdc: (Number(merchant) / 1e6).toFixed(6),
      feesUsdc: (Number(fee) / 1e6).toFixed(6),
      refundedUsdc: '0.000000',
    });
    expect(series.body.totals).toMatchObject({ orders: 1, grossUsdc: '10.800000' });
    const all = await owner.api.get('/api/analytics/daily');
    expect(all.body.days).toHaveLength(30);
    expect(all.body.totals).toMatchObject({ orders: 2, payments: 2, grossUsdc: '21.600000' });
  }, 60_000);
});

describe('retention of the indexed transfers', () => {
  test('deletes only old transfers that touch no deposit address, in batches, and /api/health shows the run', async () => {
    const owner = await newMerchant(t.app, 'retention');
    const store = (
      await owner.api.post('/api/stores', storeForm({ paymentAddress: freshAddress() }))
    ).body;
    const { orderId } = await orderOneMug(owner, t.shopper, store.id);
    const deposit = (
      await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, { paymentChain: 'base' })
    ).body.paymentWallet.address as string;
    const admin = postgres(t.stack.adminDatabaseUrl, { max: 1, onnotice: () => {} });
    try {
      // Rows as the indexer writes them: 13 months old, or 11, to or from one of our addresses.
      const month = 30 * 86_400;
      const now = Math.floor(Date.now() / 1000);
      // Note: Ponder's live-query trigger writes to a temporary table of its sessions.
      const row = (id: string, from: string, to: string, age: number) =>
        admin.begin(async (tx) => {
          await tx`create temp table if not exists live_query_tables (table_name text primary key) on commit drop`;
          await tx`insert into indexer.transfer (id, "from", "to", value, block_number, block_timestamp, tx_hash, log_index)
            values (${id}, ${from}, ${to}, 1, 1, ${now - age}, ${`0x${id}`}, 0)`;
        });
      const stranger = () => freshAddress().toLowerCase();
      const old = 13 * month;
      for (let i = 0; i < 5; i++) await row(`retention-old-${i}`, stranger(), stranger(), old + i);
      await row('retention-to-deposit', stranger(), deposit.toLowerCase(), old);
      await row('retention-from-deposit', deposit.toLowerCase(), stranger(), old);
      await row('retention-recent', stranger(), stranger(), 11 * month);
      const before = await admin<{ n: number }[]>`select count(*)::int as n from indexer.transfer`;

      // Off (RETENTION_MONTHS=0): nothing goes, the run is still recorded.
      const config = { ...retentionConfig({ RETENTION_MONTHS: '0' }), batchSize: 2, pauseMs: 0 };
      const off = await waitUntil(async () => {
        const run = await runRetention(t.workerDatabase.db, config);
        return run.ran && run;
      }, 'a retention run');
      expect(off.deleted).toBe(0);
      expect(await admin<{ n: number }[]>`select count(*)::int as n from indexer.transfer`).toEqual(
        before,
      );

      let pauses = 0;
      const run = await runRetention(
        t.workerDatabase.db,
        { ...config, months: 12 },
        { sleep: async () => void pauses++ },
      );
      expect(run.deleted).toBe(5);
      // Batches of 2 rows: at least 3 of them, each its own transaction, a pause between.
      expect(pauses).toBeGreaterThanOrEqual(2);
      const left = await admin<{ id: string }[]>`
        select id from indexer.transfer where id like 'retention-%' order by id`;
      expect(left.map((r) => r.id)).toEqual([
        'retention-from-deposit',
        'retention-recent',
        'retention-to-deposit',
      ]);
      // The chain's real transfers (all recent) are all still there.
      const [after] = await admin<{ n: number }[]>`select count(*)::int as n from indexer.transfer`;
      expect(after?.n).toBe((before[0]?.n ?? 0) - 5);

      const health = await t.shopper.get('/api/health');
      expect(health.body.settlement.retention).toMatchObject({
        windowMonths: 12,
        rowsDeleted: 5,
        lastError: null,
      });
      expect(Date.parse(health.body.settlement.retention.lastRunAt)).toBeGreaterThan(
        Date.now() - 60_000,
      );
      expect(Date.parse(health.body.settlement.retention.cutoff) / 1000).toBeLessThan(
        now - 11 * month,
      );
      expect(health.body.settlement.retention.rowsDeletedTotal).toBeGreaterThanOrEqual(5);
    } finally {
      await admin.end({ timeout: 5 });
    }
  }, 60_000);
});
