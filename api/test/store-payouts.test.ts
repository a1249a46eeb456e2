// A store's payouts page on the real stack (Postgres, anvil with Circle's USDC, the indexer, the
// worker's loops): two paid orders forwarded to the payout wallet and a refund the merchant sent
// from it; the page's per-day received and refunded sums are the chain's USDC Transfer logs into
// and out of the payout address, to the base unit, with the same transactions; its fees are the
// transfers to the treasury; the CSV holds the same lines; another merchant gets 404 and an
// anonymous client 401.
import { describe, expect, test } from 'bun:test';
import { localAccount, payUsdc } from '@store/stack/usdc';
import { eq } from 'drizzle-orm';
import { type Address, createPublicClient, getAddress, http, parseAbiItem, parseUnits } from 'viem';
import { foundry } from 'viem/chains';
import { loadWorkerConfig } from '../src/config.ts';
import { refunds } from '../src/db/schema.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { apiClient, newMerchant, storeForm } from './support/client.ts';
import { buyer, orderOneMug, waitForForwarded } from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const t = useChainApi({
  confirmations: 1,
  poolSize: 6,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({
        ...stack.env,
        CONFIRMATIONS: '1',
        FORWARDING_RETRY_BASE_MS: '100',
        WEBHOOK_RETRY_BASE_MS: '100',
      }),
      database.db,
    ),
});

const transfer = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);
const units = (amount: string) => BigInt(amount.replace('.', ''));

interface Entry {
  time: string;
  type: 'payout' | 'merchant_refund';
  orderId: string;
  txHash: string;
  from: string;
  to: string;
  amountUsdc: string;
  amountBaseUnits: string;
}
interface Day {
  day: string;
  payouts: number;
  refunds: number;
  receivedUsdc: string;
  refundedUsdc: string;
  netUsdc: string;
  feesUsdc: string;
  entries: Entry[];
}

describe("a store's payouts page", () => {
  test("lists per day what reached the payout wallet, equal to the chain's Transfer logs to the base unit", async () => {
    const owner = await newMerchant(t.app, 'payouts');
    // The payout wallet is an anvil account the test can send a refund from.
    const payout = getAddress(localAccount(8).address);
    const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout })))
      .body as { id: string; slug: string };
    const paid: { orderId: string; buyerToken: string; deposit: Address }[] = [];
    for (const account of [1, 2]) {
      const { orderId, buyerToken } = await orderOneMug(owner, t.shopper, store.id);
      const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
        paymentChain: 'base',
      });
      expect(wallet.status).toBe(200);
      const deposit = wallet.body.paymentWallet.address as Address;
      await payUsdc(t.stack.env, account, deposit, usdc('10.80'));
      paid.push({ orderId, buyerToken, deposit });
    }
    for (const { orderId } of paid) await waitForForwarded(t.database.db, orderId);

    // A refund from the payout wallet: the payer confirms the address, the merchant sends it.
    const [first] = paid;
    if (!first) throw new Error('no order');
    const started = await owner.api.post(`/api/orders/${first.orderId}/refunds`, {
      amount: '3.00',
    });
    expect(started.status).toBe(200);
    const claims = await t.shopper.get(
      `/api/orders/${first.orderId}/refund-claims`,
      buyer(first.buyerToken),
    );
    const token = String(claims.body[0]?.claimPath).replace('/refund/', '');
    const payer = getAddress(localAccount(1).address);
    expect((await t.shopper.post(`/api/refund-claims/${token}`, { address: payer })).status).toBe(
      200,
    );
    const sent = await payUsdc(t.stack.env, 8, payer, usdc('3.00'));
    await waitUntil(async () => {
      const [row] = await t.database.db
        .select()
        .from(refunds)
        .where(eq(refunds.orderId, first.orderId));
      return row?.status === 'refunded';
    }, 'the payout-wallet refund to be matched');

    const page = await waitUntil(async () => {
      const { status, body } = await owner.api.get(`/api/stores/${store.id}/payouts`);
      expect(status).toBe(200);
      const entries = (body.days as Day[]).flatMap((d) => d.entries);
      const legs = entries.filter((e) => e.type === 'payout').length;
      return legs === 2 && entries.some((e) => e.type === 'merchant_refund') && body;
    }, 'the payouts page to hold both payouts and the refund');
    expect(page.payoutAddress).toBe(payout);
    const days = page.days as Day[];

    // The chain: USDC Transfer logs into the payout address from the orders' deposit addresses,
    // out of it to the payer, and from the deposit addresses to the treasury, by the UTC day of
    // their block.
    const client = createPublicClient({ chain: foundry, transport: http(t.stack.env.RPC_URL) });
    const logs = (args: { from?: Address | Address[]; to?: Address }) =>
      client.getLogs({
        address: t.stack.env.USDC_ADDRESS as Address,
        event: transfer,
        args,
        fromBlock: 0n,
      });
    const deposits = paid.map((p) => p.deposit);
    const treasury = getAddress(t.stack.env.TREASURY_ADDRESS as string);
    const dayOfBlock = async (blockNumber: bigint) => {
      const block = await client.getBlock({ blockNumber });
      return new Date(Number(block.timestamp) * 1000).toISOString().slice(0, 10);
    };
    const byDay = async (entries: Awaited<ReturnType<typeof logs>>) => {
      const sums = new Map<string, { total: bigint; hashes: string[] }>();
      for (const log of entries) {
        const day = await dayOfBlock(log.blockNumber);
        const sum = sums.get(day) ?? { total: 0n, hashes: [] };
        sum.total += log.args.value ?? 0n;
        sum.hashes.push(log.transactionHash.toLowerCase());
        sums.set(day, sum);
      }
      return sums;
    };
    const intoPayout = await byDay(await logs({ from: deposits, to: payout }));
    const outOfPayout = await byDay(await logs({ from: payout }));
    const toTreasury = await byDay(await logs({ from: deposits, to: treasury }));
    const chainDays = new Set([...intoPayout.keys(), ...outOfPayout.keys(), ...toTreasury.keys()]);
    expect(new Set(days.map((d) => d.day))).toEqual(chainDays);
    for (const day of days) {
      const into = intoPayout.get(day.day);
      const out = outOfPayout.get(day.day);
      expect(units(day.receivedUsdc)).toBe(into?.total ?? 0n);
      expect(units(day.refundedUsdc)).toBe(out?.total ?? 0n);
      expect(units(day.netUsdc.replace('-', ''))).toBe(
        (into?.total ?? 0n) > (out?.total ?? 0n)
          ? (into?.total ?? 0n) - (out?.total ?? 0n)
          : (out?.total ?? 0n) - (into?.total ?? 0n),
      );
      expect(units(day.feesUsdc)).toBe(toTreasury.get(day.day)?.total ?? 0n);
      const hashes = (type: Entry['type']) =>
        day.entries
          .filter((e) => e.type === type)
          .map((e) => e.txHash)
          .sort();
      expect(hashes('payout')).toEqual([...(into?.hashes ?? [])].sort());
      expect(hashes('merchant_refund')).toEqual([...(out?.hashes ?? [])].sort());
      for (const entry of day.entries) {
        expect(entry.time.slice(0, 10)).toBe(day.day);
        expect(units(entry.amountUsdc)).toBe(BigInt(entry.amountBaseUnits));
      }
    }
    // What the orders paid: 2 × 10.80 = 21.60, the merchant's 98% of it arrived, 3.00 went back.
    expect(units(page.totals.receivedUsdc)).toBe(usdc('21.168'));
    expect(page.totals).toMatchObject({
      payouts: 2,
      refunds: 1,
      receivedUsdc: '21.168000',
      refundedUsdc: '3.000000',
      netUsdc: '18.168000',
      feesUsdc: '0.432000',
    });
    const refundEntry = days.flatMap((d) => d.entries).find((e) => e.type === 'merchant_refund');
    expect(refundEntry).toMatchObject({
      orderId: first.orderId,
      txHash: sent.hash.toLowerCase(),
      from: payout.toLowerCase(),
      to: payer.toLowerCase(),
      amountUsdc: '3.000000',
    });

    // The CSV: the same lines, oldest first.
    const today = new Date().toISOString().slice(0, 10);
    const csv = await t.app.handle(
      new Request(`http://localhost/api/stores/${store.id}/payouts/csv?to=${today}`, {
        headers: { cookie: owner.cookie },
      }),
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain(`${store.slug}-payouts-`);
    const [head = '', ...lines] = (await csv.text()).split('\r\n').filter(Boolean);
    const names = head.split(',');
    const rows = lines.map((line) => {
      const values = line.split(',');
      return Object.fromEntries(names.map((name, i) => [name, values[i] ?? '']));
    });
    const sum = (type: string) =>
      rows
        .filter((r) => r.Type === type)
        .reduce((total, r) => total + BigInt(r['Amount (base units)'] ?? '0'), 0n);
    expect(rows).toHaveLength(3);
    expect(sum('payout')).toBe(units(page.totals.receivedUsdc));
    expect(sum('merchant_refund')).toBe(units(page.totals.refundedUsdc));
    expect(rows.find((r) => r.Type === 'merchant_refund')).toMatchObject({
      Direction: 'out',
      Transaction: sent.hash.toLowerCase(),
    });

    // Ranges: from after to, or longer than the page covers, are refused.
    expect(
      (await owner.api.get(`/api/stores/${store.id}/payouts?from=2026-02-01&to=2026-01-01`)).status,
    ).toBe(422);
    expect(
      (await owner.api.get(`/api/stores/${store.id}/payouts?from=2025-01-01&to=2025-12-31`)).status,
    ).toBe(422);
    const empty = await owner.api.get(
      `/api/stores/${store.id}/payouts?from=2020-01-01&to=2020-01-31`,
    );
    expect(empty.body).toMatchObject({ days: [], totals: { payouts: 0, netUsdc: '0.000000' } });

    // Another merchant gets 404, an anonymous client 401, for the page and the CSV.
    const stranger = await newMerchant(t.app, 'stranger');
    for (const path of [`/api/stores/${store.id}/payouts`, `/api/stores/${store.id}/payouts/csv`]) {
      expect((await stranger.api.get(path)).status).toBe(404);
      expect((await apiClient(t.app).get(path)).status).toBe(401);
    }
  }, 120_000);
});
