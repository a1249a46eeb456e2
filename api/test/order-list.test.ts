// The merchant's order list on a real Postgres: search (email, order id, order number, external
// order id), filters (store, status, payment exception, days) and cursor pages past 500 orders;
// another merchant and an anonymous client see none of it.
import { beforeAll, describe, expect, test } from 'bun:test';
import { type PaymentPhase, parseUsdc, storedPayment } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { eq, sql } from 'drizzle-orm';
import { orders, paymentWallets } from '../src/db/schema.ts';
import { storeForm } from './support/client.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });
const db = () => t.testDb.database.db;
let storeA: string;
let storeB: string;
const TOTAL = 520;
const ids: string[] = [];
let special: { underpaid: string; overpaid: string; late: string; oversold: string; ext: string };

/** Inserts `count` orders of `storeId` (faster than the checkout), oldest first. */
async function insertOrders(storeId: string, count: number, start: number) {
  const rows = Array.from({ length: count }, (_, i) => ({
    storeId,
    customerEmail: `shopper${start + i}@example.com`,
    shippingAddress: customer.shippingAddress,
    items: [{ productId: 'p', title: 'Item', priceUsdc: '1.00', quantity: 1 }],
    subtotalUsdc: '1.00',
    totalUsdc: '1.00',
    // Note: one second apart, some sharing a time, so the cursor must tell ties apart by id.
    createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor((start + i) / 2) * 1000),
  }));
  const inserted = await db().insert(orders).values(rows).returning({ id: orders.id });
  return inserted.map((row) => row.id);
}

let walletIndex = 0;
async function withWallet(orderId: string, phase: PaymentPhase, received: string) {
  walletIndex += 1;
  const { state, exception } = storedPayment(phase, parseUsdc(received));
  await db()
    .insert(paymentWallets)
    .values({
      orderId,
      walletAddress: `0x${(0xdef000 + walletIndex).toString(16).padStart(40, '0')}`,
      derivationPath: `m/44'/60'/0'/0/${800_000 + walletIndex}`,
      derivationIndex: 800_000 + walletIndex,
      // Note: stored as the record step stores it.
      status: state,
      exception,
      expectedAmountUsdc: '1.00',
      receivedAmountUsdc: received,
      detectedAmountUsdc: received,
      storePaymentAddress: storeForm().paymentAddress,
      paymentChain: 'base',
    });
}

beforeAll(async () => {
  storeA = (await t.owner.api.post('/api/stores', storeForm())).body.id;
  storeB = (await t.owner.api.post('/api/stores', storeForm())).body.id;
  ids.push(...(await insertOrders(storeA, TOTAL - 20, 0)));
  ids.push(...(await insertOrders(storeB, 20, TOTAL - 20)));
  const [underpaid, overpaid, late, oversold, ext] = ids.slice(10, 15) as [
    string,
    string,
    string,
    string,
    string,
  ];
  await withWallet(underpaid, 'underpaid', '0.40');
  await withWallet(overpaid, 'overpaid', '1.50');
  await withWallet(late, 'paid_late', '1.00');
  await db()
    .update(orders)
    .set({
      stockShortfall: [{ productId: 'p', title: 'Item', ordered: 1, available: 0 }],
    })
    .where(eq(orders.id, oversold));
  await db()
    .update(orders)
    .set({ metadata: { externalOrderId: 'SHOP-10_42%' }, status: 'paid' })
    .where(eq(orders.id, ext));
  special = { underpaid, overpaid, late, oversold, ext };
  // the other merchant's order, which no query of the owner may find
  const otherStore = (await t.other.api.post('/api/stores', storeForm())).body.id;
  await insertOrders(otherStore, 1, 9_999);
});

const list = (query: string) => t.owner.api.get(`/api/orders?${query}`);
const idsOf = (body: { id: string }[]) => body.map((order) => order.id);

describe('GET /api/orders: cursor pages', () => {
  test('walks every order past 500, newest first, without a gap or a repeat', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`limit=200${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...idsOf(page.body));
      cursor = page.headers.get('x-next-cursor');
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(TOTAL);
    expect(new Set(seen).size).toBe(TOTAL);
    const expected = await db()
      .select({ id: orders.id })
      .from(orders)
      .where(sql`${orders.storeId} in (${storeA}, ${storeB})`)
      .orderBy(sql`created_at desc, id desc`);
    expect(seen).toEqual(expected.map((row) => row.id));
  });

  test('a page of at most 500; a bad cursor or limit is 422 with a message', async () => {
    expect((await list('limit=501')).status).toBe(422);
    const bad = await list('cursor=bm90LWEtY3Vyc29y');
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toBe('cursor is not valid; start again from the first page');
    expect((await list('cursor=%3Cscript%3E')).status).toBe(422);
    const last = await list('limit=500');
    expect(last.body).toHaveLength(500);
    expect(last.headers.get('x-next-cursor')).toBeTruthy();
  });
});

describe('GET /api/orders: search and filters', () => {
  test('search by email, order id, order number and external order id', async () => {
    const id = ids[42] as string;
    expect(idsOf((await list('q=shopper42%40example.com')).body)).toEqual([id]);
    expect(idsOf((await list('q=SHOPPER42@EXAMPLE')).body)).toEqual([id]);
    expect(idsOf((await list(`q=${id}`)).body)).toEqual([id]);
    expect(
      idsOf((await list(`q=${encodeURIComponent(`#${id.slice(-8).toUpperCase()}`)}`)).body),
    ).toContain(id);
    // LIKE's wildcards in the text are matched as themselves
    expect(idsOf((await list('q=10_42%25')).body)).toEqual([special.ext]);
    expect(idsOf((await list('q=10x42')).body)).toEqual([]);
  });

  test("one customer's orders: the address exactly, any case, never one containing it", async () => {
    const id = ids[42] as string;
    // The search finds hopper42@ inside shopper42@; the filter does not.
    expect(idsOf((await list('q=hopper42%40example.com')).body)).toEqual([id]);
    expect(idsOf((await list('customerEmail=SHOPPER42%40Example.com')).body)).toEqual([id]);
    expect(idsOf((await list('customerEmail=hopper42%40example.com')).body)).toEqual([]);
    expect((await list(`customerEmail=${'x'.repeat(201)}`)).status).toBe(422);
    expect(
      (await t.other.api.get('/api/orders?customerEmail=shopper42%40example.com')).body,
    ).toEqual([]);
  });

  test('filters: store, status, exception, days; combined with the search', async () => {
    expect((await list(`storeId=${storeB}&limit=500`)).body).toHaveLength(20);
    expect(idsOf((await list('status=paid')).body)).toEqual([special.ext]);
    expect(idsOf((await list('exception=underpaid')).body)).toEqual([special.underpaid]);
    expect(idsOf((await list('exception=overpaid')).body)).toEqual([special.overpaid]);
    expect(idsOf((await list('exception=paid_late')).body)).toEqual([special.late]);
    expect(idsOf((await list('exception=oversold')).body)).toEqual([special.oversold]);
    // orders are two a second from 2026-01-01: every one is on that day
    expect((await list('from=2026-01-01&to=2026-01-01&limit=500')).body).toHaveLength(500);
    expect((await list('from=2026-01-02')).body).toHaveLength(0);
    expect((await list('to=2025-12-31')).body).toHaveLength(0);
    expect((await list(`q=shopper519&storeId=${storeB}`)).body).toHaveLength(1);
    expect((await list('exception=lost')).status).toBe(422);
    expect((await list('from=2026-02-30x')).status).toBe(422);
    expect((await list(`q=${'x'.repeat(201)}`)).status).toBe(422);
  });

  test('another merchant finds none of them; an anonymous client is refused', async () => {
    expect((await t.shopper.get('/api/orders?q=shopper42')).status).toBe(401);
    expect((await t.other.api.get('/api/orders?q=shopper42')).body).toEqual([]);
    expect((await t.other.api.get(`/api/orders?q=${ids[42]}`)).body).toEqual([]);
    expect((await t.other.api.get(`/api/orders?storeId=${storeA}`)).status).toBe(404);
    expect((await t.other.api.get('/api/orders?exception=underpaid')).body).toEqual([]);
  });
});
