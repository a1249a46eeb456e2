// Invoices on the real stack (Postgres, anvil with Circle's USDC, the indexer, the worker's loops):
// a paid order's invoice PDF carries the store's legal details, the buyer, the lines and the
// order's own totals and payment transaction (read back with pdftotext, drawn with pdftoppm); its
// store's owner and its shopper (buyer token) read it, another merchant gets 404 and an anonymous
// client 401; numbers run without gaps under concurrent payments and rolled-back ones; the receipt
// carries the PDF once the store turns it on.
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatOrderNumber } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { payUsdc } from '@store/stack/usdc';
import { eq, inArray } from 'drizzle-orm';
import { type Address, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { LOCAL_CHAIN_ID } from '../src/chain/networks.ts';
import { loadWorkerConfig } from '../src/config.ts';
import { invoices, orders } from '../src/db/schema.ts';
import { MAIL_KINDS } from '../src/mail/kinds.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { apiClient, newMerchant, storeForm } from './support/client.ts';
import { buyer } from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';

const t = useChainApi({
  confirmations: 1,
  poolSize: 6,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({ ...stack.env, CONFIRMATIONS: '1', FORWARDING_RETRY_BASE_MS: '100' }),
      database.db,
    ),
});

const OUT = '/tmp/invoice-test';
mkdirSync(OUT, { recursive: true });

/** The PDF of GET /api/orders/{id}/invoice.pdf with these headers, or the refusal. */
async function fetchInvoice(orderId: string, headers: Record<string, string> = {}) {
  const response = await t.app.handle(
    new Request(`http://localhost/api/orders/${orderId}/invoice.pdf`, { headers }),
  );
  return { status: response.status, response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** The text of a PDF (pdftotext -layout), and its first page drawn to PNG (pdftoppm). */
function readPdf(bytes: Uint8Array, name: string): string {
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, bytes);
  const png = spawnSync('pdftoppm', ['-png', '-r', '80', '-singlefile', file, join(OUT, name)]);
  expect(png.status).toBe(0);
  expect(
    readFileSync(join(OUT, `${name}.png`))
      .subarray(1, 4)
      .toString(),
  ).toBe('PNG');
  const text = spawnSync('pdftotext', ['-layout', file, '-']);
  expect(text.status).toBe(0);
  return text.stdout.toString();
}

/** A store with legal details and a product; an order of `lines` by the test customer. */
async function storeWithProducts(prefix: string) {
  const owner = await newMerchant(t.app, prefix);
  const store = (
    await owner.api.post(
      '/api/stores',
      storeForm({ paymentAddress: privateKeyToAccount(generatePrivateKey()).address }),
    )
  ).body as { id: string; name: string; updatedAt: string };
  const product = async (title: string, priceUsdc: string) =>
    (await owner.api.post('/api/products', { storeId: store.id, title, priceUsdc, inventory: 50 }))
      .body as { id: string };
  return {
    owner,
    store,
    mug: await product('Mug', '10.00'),
    tea: await product('Tea tin', '4.25'),
  };
}

/** Places a 2 mugs + 1 tea tin order (24.25 + 8% tax 1.94 = 26.19); its id and buyer token. */
async function placeOrder(storeId: string, mugId: string, teaId: string) {
  const created = await t.shopper.post('/api/orders', {
    storeId,
    ...customer,
    items: [
      { productId: mugId, title: 'Mug', priceUsdc: '10.00', quantity: 2 },
      { productId: teaId, title: 'Tea tin', priceUsdc: '4.25', quantity: 1 },
    ],
    subtotalUsdc: '24.25',
    shippingUsdc: '0.00',
    totalUsdc: '26.19',
    status: 'pending',
  });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, buyerToken: created.body.reviewToken as string };
}

async function pay(orderId: string, account: number, amount: string) {
  const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
    paymentChain: 'base',
  });
  expect(wallet.status).toBe(200);
  const { hash } = await payUsdc(
    t.stack.env,
    account,
    wallet.body.paymentWallet.address as Address,
    parseUnits(amount, 6),
  );
  await waitUntil(
    async () => (await t.shopper.get(`/api/orders/${orderId}`)).body.status === 'paid',
    `order ${orderId} to be paid`,
  );
  return hash;
}

describe('invoices', () => {
  test("a paid order's invoice PDF shows its lines and equals its totals; owner and shopper read it, others are refused", async () => {
    const { owner, store, mug, tea } = await storeWithProducts('invoice');
    const settings = await owner.api.put(`/api/stores/${store.id}`, {
      taxRateBps: 800,
      legalName: 'Mugs & Tea GmbH',
      legalAddress: 'Hauptstraße 5\n\n  10115 Berlin  \nGermany',
      taxId: 'DE123456789',
      updatedAt: store.updatedAt,
    });
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({
      legalName: 'Mugs & Tea GmbH',
      legalAddress: 'Hauptstraße 5\n10115 Berlin\nGermany',
      taxId: 'DE123456789',
      attachInvoiceToReceipt: false,
    });
    // The public store carries none of it.
    expect((await apiClient(t.app).get(`/api/stores/${store.id}`)).body.legalName).toBeUndefined();

    const order = await placeOrder(store.id, mug.id, tea.id);
    // Not paid yet: no invoice.
    const early = await fetchInvoice(order.id, { cookie: owner.cookie });
    expect(early.status).toBe(404);

    const hash = await pay(order.id, 1, '26.19');
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    const owned = await fetchInvoice(order.id, { cookie: owner.cookie });
    expect(owned.status).toBe(200);
    expect(owned.response.headers.get('content-type')).toBe('application/pdf');
    expect(owned.response.headers.get('content-disposition')).toBe(
      'attachment; filename="invoice-INV-000001.pdf"',
    );
    const text = readPdf(owned.bytes, 'paid-order');
    for (const expected of [
      'INVOICE',
      'Mugs & Tea GmbH',
      'Hauptstraße 5',
      '10115 Berlin',
      'Tax ID: DE123456789',
      'INV-000001',
      formatOrderNumber(order.id),
      `${customer.shippingAddress.firstName} ${customer.shippingAddress.lastName}`,
      customer.customerEmail,
      customer.shippingAddress.street,
      hash,
    ])
      expect(text).toContain(expected);
    // Each line: title, quantity, unit price, amount; then the order's own totals.
    expect(text).toMatch(/Mug\s+2\s+10\.00 USDC\s+20\.00 USDC/);
    expect(text).toMatch(/Tea tin\s+1\s+4\.25 USDC\s+4\.25 USDC/);
    expect(row?.totalUsdc).toBe('26.19');
    expect(text).toMatch(new RegExp(`Subtotal\\s+${row?.subtotalUsdc} USDC`));
    expect(text).toMatch(new RegExp(`Shipping\\s+${row?.shippingUsdc} USDC`));
    expect(text).toMatch(new RegExp(`Tax\\s+${row?.taxUsdc} USDC`));
    expect(text).toMatch(new RegExp(`Total\\s+${row?.totalUsdc} USDC`));
    expect(text).toContain('Paid in USDC on');

    // The shopper's pages read it with the order's buyer token; the same bytes.
    const shopper = await fetchInvoice(order.id, buyer(order.buyerToken).headers);
    expect(shopper.status).toBe(200);
    expect(readPdf(shopper.bytes, 'paid-order-shopper')).toBe(text);
    // Another merchant: 404; anonymous or a wrong token: 401; an unknown order: 401 / 404.
    const stranger = await newMerchant(t.app, 'stranger');
    expect((await fetchInvoice(order.id, { cookie: stranger.cookie })).status).toBe(404);
    expect((await fetchInvoice(order.id)).status).toBe(401);
    expect((await fetchInvoice(order.id, { 'x-buyer-token': 'x'.repeat(64) })).status).toBe(401);
    expect((await fetchInvoice('not-an-id', { cookie: owner.cookie })).status).toBe(404);

    // The receipt carries the PDF once the store turns it on (off by default: none).
    const message = {
      id: 'x',
      kind: 'receipt',
      orderId: order.id,
      userId: null,
      toAddress: customer.customerEmail,
      payload: null,
    };
    const render = MAIL_KINDS.receipt;
    if (!render) throw new Error('no receipt template');
    const without = await render(t.database.db, message, LOCAL_CHAIN_ID);
    expect(without?.attachments).toBeUndefined();
    const current = (await owner.api.get(`/api/stores/${store.id}`)).body;
    const on = await owner.api.put(`/api/stores/${store.id}`, {
      attachInvoiceToReceipt: true,
      updatedAt: current.updatedAt,
    });
    expect(on.body.attachInvoiceToReceipt).toBe(true);
    const mail = await render(t.database.db, message, LOCAL_CHAIN_ID);
    expect(mail?.attachments?.map((a) => [a.filename, a.contentType])).toEqual([
      ['invoice-INV-000001.pdf', 'application/pdf'],
    ]);
    const attached = mail?.attachments?.[0]?.content ?? Buffer.alloc(0);
    expect(readPdf(new Uint8Array(attached), 'receipt-attachment')).toContain('INV-000001');

    // Settings outside their caps are refused.
    for (const bad of [
      { legalName: 'x'.repeat(201) },
      { legalAddress: 'a\nb\nc\nd\ne\nf\ng' },
      { taxId: 'DE<script>' },
      { customerRetentionMonths: 0 },
      { customerRetentionMonths: 121 },
      { attachInvoiceToReceipt: 'yes' },
    ]) {
      const refused = await owner.api.put(`/api/stores/${store.id}`, bad);
      expect(refused.status, JSON.stringify(bad)).toBe(422);
    }
  }, 120_000);

  test('numbers run 1, 2, 3 … per store without gaps under concurrent payments and rolled-back ones', async () => {
    const { store, mug, tea } = await storeWithProducts('numbers');
    // Five orders paid on the chain at once, from five payers.
    const placed = await Promise.all(
      [0, 1, 2, 3, 4].map(() => placeOrder(store.id, mug.id, tea.id)),
    );
    await Promise.all(placed.map((order, i) => pay(order.id, 2 + i, '26.19')));
    const onChain = await t.database.db
      .select({ number: invoices.number, orderId: invoices.orderId })
      .from(invoices)
      .where(eq(invoices.storeId, store.id));
    expect(onChain.map((r) => r.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);

    // Twenty more made paid by concurrent transactions, one in four rolled back after its update.
    const more = await Promise.all(
      Array.from({ length: 20 }, () => placeOrder(store.id, mug.id, tea.id)),
    );
    const outcomes = await Promise.all(
      more.map((order, i) =>
        t.database.db
          .transaction(async (tx) => {
            await tx.update(orders).set({ status: 'paid' }).where(eq(orders.id, order.id));
            await Bun.sleep(5);
            if (i % 4 === 0) throw new Error('rolled back');
            return true;
          })
          .catch(() => false),
      ),
    );
    const paid = more.filter((_, i) => outcomes[i]).map((o) => o.id);
    expect(paid).toHaveLength(15);
    const rows = await t.database.db
      .select({ number: invoices.number, orderId: invoices.orderId })
      .from(invoices)
      .where(eq(invoices.storeId, store.id));
    expect(rows.map((r) => r.number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    // Only the committed ones have one; a later status keeps the number.
    const rolledBack = more.filter((_, i) => !outcomes[i]).map((o) => o.id);
    expect(
      await t.database.db.select().from(invoices).where(inArray(invoices.orderId, rolledBack)),
    ).toEqual([]);
    const first = rows.find((r) => r.orderId === paid[0]);
    await t.database.db
      .update(orders)
      .set({ status: 'shipped' })
      .where(eq(orders.id, paid[0] ?? ''));
    const [kept] = await t.database.db
      .select({ number: invoices.number })
      .from(invoices)
      .where(eq(invoices.orderId, paid[0] ?? ''));
    expect(kept?.number).toBe(first?.number);
  }, 120_000);
});
