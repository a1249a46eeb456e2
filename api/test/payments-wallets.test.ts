// Deposit addresses and universal orders on a real Postgres (no chain needed): derivation from the
// xpub, idempotent and race-safe assignment, the status of an unpaid order, both universal forms.
import { beforeAll, describe, expect, test } from 'bun:test';
import { CHECKOUT_URL_MESSAGES, defaultConfirmations } from '@store/shared';
import { depositAddressDeriver } from '@store/shared/deposit-address';
import { customer } from '@store/stack/api-process';
import { TEST_XPUB } from '@store/stack/keys';
import { eq } from 'drizzle-orm';
import { orders, paymentWallets, stores } from '../src/db/schema.ts';
import { PAYMENT_API_MESSAGES } from '../src/modules/payments/model.ts';
import { WEBHOOK_URL_MESSAGES } from '../src/webhooks/url-safety.ts';
import { apiClient, storeForm } from './support/client.ts';
import { createTestApp } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['payee'] });
let storeId: string;
const merchantAddress = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

/** A pending order of the test store, inserted directly (its totals are not under test here). */
async function storeOrder(total = '25.00', store = storeId) {
  const [order] = await t.testDb.database.db
    .insert(orders)
    .values({ storeId: store, ...customer, items: [], totalUsdc: total })
    .returning({ id: orders.id });
  return (order as { id: string }).id;
}
const assign = (orderId: string, body: unknown = { paymentChain: 'base' }) =>
  t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, body);

beforeAll(async () => {
  storeId = (await t.payee.api.post('/api/stores', storeForm({ paymentAddress: merchantAddress })))
    .body.id;
});

describe('POST /api/orders/{id}/assign-payment-wallet', () => {
  test('derives the address from the xpub and stores the wallet with its window', async () => {
    const orderId = await storeOrder('25.00');
    const { status, body } = await assign(orderId);
    expect(status).toBe(200);
    const wallet = body.paymentWallet;
    expect(wallet).toMatchObject({ expectedAmount: '25.00', chain: 'base' });
    const [row] = await t.testDb.database.db
      .select()
      .from(paymentWallets)
      .where(eq(paymentWallets.orderId, orderId));
    expect(row?.walletAddress).toBe(wallet.address);
    expect(row?.derivationPath).toBe(`m/44'/60'/0'/0/${row?.derivationIndex}`);
    expect(row?.storePaymentAddress).toBe(merchantAddress);
    expect(row?.status).toBe('waiting');
    const window = Date.parse(wallet.expiredAt) - Date.now();
    expect(Math.abs(window - 168 * 3_600_000)).toBeLessThan(60_000);
    const [order] = await t.testDb.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.paymentAddress).toBe(wallet.address);
    expect(order?.paymentChain).toBe('base');
  });

  test('answers the same wallet on every call; a bare POST means Base', async () => {
    const orderId = await storeOrder();
    const first = await assign(orderId);
    const again = await assign(orderId, undefined);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  test('concurrent calls for one order give one wallet; orders never share an index', async () => {
    const orderId = await storeOrder();
    const answers = await Promise.all(Array.from({ length: 8 }, () => assign(orderId)));
    expect(new Set(answers.map((a) => a.body.paymentWallet.address)).size).toBe(1);
    const others = await Promise.all(Array.from({ length: 8 }, () => storeOrder()));
    const addresses = await Promise.all(others.map(async (id) => (await assign(id)).body));
    expect(new Set(addresses.map((a) => a.paymentWallet.address)).size).toBe(8);
    const rows = await t.testDb.database.db.select().from(paymentWallets);
    expect(rows.filter((r) => r.orderId === orderId)).toHaveLength(1);
    expect(new Set(rows.map((r) => r.derivationIndex)).size).toBe(rows.length);
  });

  test('refuses a store without a payment address, a paid order, a bad chain, an unknown id', async () => {
    const [bare] = await t.testDb.database.db
      .insert(stores)
      .values({ name: 'Bare', slug: `bare-${Date.now()}`, ownerId: 'admin' })
      .returning({ id: stores.id });
    const orphan = await storeOrder('5.00', (bare as { id: string }).id);
    expect(await assign(orphan)).toMatchObject({
      status: 422,
      body: { error: { message: PAYMENT_API_MESSAGES.noPaymentAddress } },
    });
    const paid = await storeOrder();
    await t.testDb.database.db.update(orders).set({ status: 'paid' }).where(eq(orders.id, paid));
    expect(await assign(paid)).toMatchObject({
      status: 409,
      body: { error: { code: 'invalid_state' } },
    });
    expect((await assign(await storeOrder(), { paymentChain: 'ethereum' })).status).toBe(422);
    expect((await assign(crypto.randomUUID())).status).toBe(404);
    expect((await assign('not-an-id')).status).toBe(404);
  });
});

describe('GET /api/check-payment-status/{orderId}', () => {
  test('is waiting before and after a wallet exists (no indexer: the stored state)', async () => {
    const orderId = await storeOrder('9.99');
    expect((await t.shopper.get(`/api/check-payment-status/${orderId}`)).body).toEqual({
      paymentDetected: false,
      status: 'waiting',
      receivedAmount: '0.000000',
      expectedAmount: '9.99',
      expiredAt: null,
      confirmations: 0,
      requiredConfirmations: defaultConfirmations(31337),
      exception: 'none',
    });
    const { paymentWallet } = (await assign(orderId)).body;
    expect((await t.shopper.get(`/api/check-payment-status/${orderId}`)).body).toEqual({
      paymentDetected: false,
      status: 'waiting',
      receivedAmount: '0.000000',
      expectedAmount: '9.99',
      expiredAt: paymentWallet.expiredAt,
      confirmations: 0,
      requiredConfirmations: defaultConfirmations(31337),
      exception: 'none',
    });
    expect((await t.shopper.get(`/api/check-payment-status/${crypto.randomUUID()}`)).status).toBe(
      404,
    );
  });
});

const universal = {
  externalOrderId: 'ORDER-1-ABC',
  storeName: 'Corner Shop',
  storePaymentAddress: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
  webhookUrl: 'https://corner.example/hooks/paid',
  ...customer,
  items: [
    { productId: 'universal-1-abc', title: 'Mug', priceUsdc: '7.5', quantity: 2 },
    { productId: 'universal-1-def', title: 'Pin', priceUsdc: '0.25', quantity: 1 },
  ],
  subtotalUsdc: '15.25',
  shippingUsdc: '0.00',
  totalUsdc: '15.25',
};

describe('POST /api/universal-orders', () => {
  test('the checkout form creates a pending order of no store, with the link as columns and its branding', async () => {
    const body = {
      ...universal,
      status: 'pending',
      metadata: { returnUrl: 'https://corner.example/done', theme: 'light', logoUrl: '☕' },
    };
    const created = await t.shopper.post('/api/universal-orders', body);
    expect(created.status).toBe(201);
    const orderId = created.body.order.id;
    const [order] = await t.testDb.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({
      storeId: null,
      source: 'unsigned_link',
      payeeAddress: universal.storePaymentAddress,
      webhookUrl: universal.webhookUrl,
      status: 'pending',
      subtotalUsdc: '15.25',
      totalUsdc: '15.25',
      metadata: {
        externalStoreName: 'Corner Shop',
        storeName: 'Corner Shop',
        externalOrderId: 'ORDER-1-ABC',
        returnUrl: 'https://corner.example/done',
        theme: 'light',
        logoUrl: '☕',
      },
    });
    // Note: nothing of the link is kept twice.
    for (const copy of ['isUniversal', 'signed', 'webhookUrl', 'storePaymentAddress'])
      expect(order?.metadata).not.toHaveProperty(copy);
    expect(order?.items[0]?.priceUsdc).toBe('7.50');
    const { paymentWallet } = (await assign(orderId)).body;
    expect(paymentWallet.expectedAmount).toBe('15.25');
  });

  test('the payment page form creates the order and its wallet at once', async () => {
    const created = await t.shopper.post('/api/universal-orders', {
      ...universal,
      paymentChain: 'base',
    });
    expect(created.status).toBe(201);
    expect(created.body.paymentWallet).toMatchObject({ expectedAmount: '15.25', chain: 'base' });
    const [wallet] = await t.testDb.database.db
      .select()
      .from(paymentWallets)
      .where(eq(paymentWallets.orderId, created.body.order.id));
    expect(wallet).toMatchObject({
      externalOrderId: 'ORDER-1-ABC',
      storePaymentAddress: universal.storePaymentAddress,
      walletAddress: created.body.paymentWallet.address,
    });
  });

  test('outside local mode, refuses a webhook URL that is not https or carries credentials', async () => {
    const production = apiClient(createTestApp(t.testDb, { LOCAL_MODE: 'false' }));
    for (const webhookUrl of ['http://corner.example/hooks', 'https://user:pw@corner.example/h']) {
      const response = await production.post('/api/universal-orders', { ...universal, webhookUrl });
      expect(response.status).toBe(422);
      expect(response.body.error.message).toBe(
        webhookUrl.startsWith('http:')
          ? WEBHOOK_URL_MESSAGES.https
          : WEBHOOK_URL_MESSAGES.credentials,
      );
    }
  });

  test('prices shipping from the link settings and refuses tampered totals', async () => {
    const shipping = { shipping: true, standardShipping: '8.99', expressShipping: '17.99' };
    const priced = {
      ...universal,
      shippingMethod: 'standard',
      shippingOptions: shipping,
      shippingUsdc: '8.99',
      totalUsdc: '24.24',
    };
    expect((await t.shopper.post('/api/universal-orders', priced)).status).toBe(201);
    const cheaper = { ...priced, shippingUsdc: '0.00', totalUsdc: '15.25' };
    expect((await t.shopper.post('/api/universal-orders', cheaper)).body.error.message).toBe(
      'Order totals do not match the items: expected subtotal 15.25, shipping 8.99, total 24.24',
    );
    const free = { ...cheaper, shippingMethod: 'free' };
    expect((await t.shopper.post('/api/universal-orders', free)).body.error.message).toBe(
      'Free shipping is not offered by this checkout link',
    );
  });

  test('enforces the URL rules on the server', async () => {
    const post = async (patch: Record<string, unknown>) =>
      (await t.shopper.post('/api/universal-orders', { ...universal, ...patch })).body.error
        ?.message;
    expect(await post({ storePaymentAddress: '0x123' })).toBe(
      CHECKOUT_URL_MESSAGES.invalidPaymentAddress,
    );
    expect(await post({ storeName: ' ' })).toBe('Store name is required');
    expect(await post({ items: [] })).toBe('At least one item is required');
    expect(await post({ metadata: { returnUrl: 'javascript:alert(1)' } })).toBe(
      'Return URL must be an http(s) URL',
    );
    expect(await post({ metadata: { colors: { primary: 'red' } } })).toBe(
      'Must be a valid hex color',
    );
    const zero = [{ productId: 'universal-0', title: 'Free', priceUsdc: '0', quantity: 1 }];
    expect(await post({ items: zero, subtotalUsdc: '0', totalUsdc: '0' })).toBe(
      'An order of 0.00 USDC needs no payment',
    );
  });
});

describe('deposit addresses of the app', () => {
  test('are the xpub children at the stored indexes', async () => {
    const orderId = await storeOrder();
    const { paymentWallet } = (await assign(orderId)).body;
    const [row] = await t.testDb.database.db
      .select()
      .from(paymentWallets)
      .where(eq(paymentWallets.orderId, orderId));
    expect(depositAddressDeriver(TEST_XPUB)(row?.derivationIndex ?? -1).address).toBe(
      paymentWallet.address,
    );
  });
});
