// Journey: a merchant opens a paid order cold from its URL (a new tab, nothing cached): the page
// shows its lines, the shipping address and phone, subtotal + shipping + tax = total, the payment
// (expected vs received, its transaction, the incoming transfer) and where the money went. The orders list opened cold
// names the store and links to the order. An underpaid order says what arrived and what is
// missing. Screenshots at phone and laptop sizes; at 390 px the page needs no sideways scroll.
import { expect, test } from '@playwright/test';
import { shippingFor, storeCheckoutTotals } from '@store/shared';
import { readStackInfo } from '@store/stack/stack-info';
import {
  createProduct,
  createStore,
  depositAddressOf,
  payOrder,
  placeOrder,
  signUp,
  unique,
} from './admin-helpers.ts';
import { payUsdc } from './support/pay.ts';
import { snapBoth } from './support/screenshots.ts';

const shippingAddress = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+1 555 0100',
  street: '12 Analytical Way',
  city: 'Portland',
  state: 'OR',
  zipCode: '97201',
};

test('a merchant opens an order cold from its URL and reads the address, tax and totals', async ({
  page,
  context,
}) => {
  await signUp(page.request);
  const storeName = unique('Detail Shop');
  const store = await createStore(page.request, storeName);
  const hoodie = await createProduct(page.request, store.id, {
    title: 'Hoodie',
    priceUsdc: '25.99',
  });
  const items = [{ productId: hoodie.id, title: 'Hoodie', priceUsdc: '25.99', quantity: 1 }];
  const totals = storeCheckoutTotals(items, shippingFor('standard'));
  const placed = await page.request.post('/api/orders', {
    data: {
      storeId: store.id,
      customerEmail: 'ada@example.com',
      shippingAddress,
      items,
      subtotalUsdc: totals.subtotalUsdc,
      shippingUsdc: totals.shippingUsdc,
      totalUsdc: totals.totalUsdc,
      shippingMethod: 'standard',
    },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const order = (await placed.json()) as { id: string; totalUsdc: string; taxUsdc: string };
  expect(order).toMatchObject({ totalUsdc: '41.06', taxUsdc: '2.08' });
  await payOrder(page.request, order, 8);

  // A new tab straight on the order's URL: nothing of the admin was visited before.
  const tab = await context.newPage();
  await tab.goto(`/admin/orders/${order.id}`);
  await expect(tab.getByRole('heading', { level: 1 })).toHaveText(`Order #${order.id.slice(-8)}`);
  const address = tab.locator('address.order-address');
  await expect(address).toContainText('Ada Lovelace');
  await expect(address).toContainText('12 Analytical Way');
  await expect(address).toContainText('Portland, OR 97201');
  await expect(address).toContainText('United States');
  const customer = tab.getByRole('region', { name: 'Customer' });
  await expect(customer).toContainText('ada@example.com');
  await expect(customer).toContainText('+1 555 0100');
  await expect(customer).toContainText(storeName);

  const lines = tab.getByRole('region', { name: 'Items' });
  await expect(lines.getByRole('listitem')).toHaveCount(1);
  await expect(lines.getByRole('listitem')).toContainText('Hoodie');
  await expect(lines.getByRole('listitem')).toContainText('1 × 25.99 USDC');
  const fact = (term: string) =>
    tab.locator('.order-totals > div').filter({ has: tab.getByText(term, { exact: true }) });
  await expect(fact('Subtotal')).toContainText('25.99 USDC');
  await expect(fact('Shipping')).toContainText('12.99 USDC');
  await expect(fact('Tax')).toContainText('2.08 USDC');
  await expect(fact('Total')).toContainText('41.06 USDC');

  const payment = tab.getByRole('region', { name: 'Payment' });
  await expect(payment).toContainText('Expected41.06 USDC');
  await expect(payment).toContainText('Received41.06 USDC');
  const paymentTx = payment.locator('dl .order-tx .mono');
  await expect(paymentTx).toHaveText(/^0x[0-9a-f]{64}$/);
  // The one incoming transfer is that transaction.
  const incoming = payment.getByRole('list', { name: 'Incoming transfers' });
  await expect(incoming.getByRole('listitem')).toHaveCount(1);
  await expect(incoming).toContainText('41.060000 USDC');
  await expect(incoming.locator('.mono')).toHaveText((await paymentTx.textContent()) ?? '');
  await expect(tab.getByText('Underpaid')).toHaveCount(0);
  await snapBoth(tab, 'order-detail-1-paid', { noSidewaysScroll: true });

  // The orders list opened cold names the store and leads to the same page.
  const list = await context.newPage();
  await list.goto('/admin/orders');
  const row = list.getByRole('row', { name: `Order #${order.id.slice(-8)}` });
  await expect(row).toContainText(storeName);
  await row.getByRole('link', { name: `#${order.id.slice(-8)}` }).click();
  await expect(list).toHaveURL(new RegExp(`/admin/orders/${order.id}$`));
  await expect(list.locator('.order-totals')).toContainText('2.08 USDC');
});

test('an underpaid order says what arrived and what is missing', async ({ page, context }) => {
  const stack = readStackInfo();
  await signUp(page.request);
  const store = await createStore(page.request, unique('Short Shop'));
  const lamp = await createProduct(page.request, store.id, { title: 'Lamp', priceUsdc: '25.00' });
  // 25.00 + 2.00 tax = 27.00, of which 20.00 is paid
  const order = await placeOrder(page.request, store.id, {
    ...lamp,
    title: 'Lamp',
    priceUsdc: '25.00',
  });
  expect(order.totalUsdc).toBe('27.00');
  await payUsdc(stack, await depositAddressOf(page.request, order.id), '20.00', 9);

  const tab = await context.newPage();
  await tab.goto(`/admin/orders/${order.id}`);
  await expect(tab.locator('.order-totals')).toContainText('2.00 USDC');
  const payment = tab.getByRole('region', { name: 'Payment' });
  await expect(async () => {
    await tab.reload();
    await expect(payment.getByRole('note')).toHaveText(
      'Underpaid: 20.00 USDC arrived, 7.00 USDC missing.',
      { timeout: 2_000 },
    );
  }).toPass({ timeout: 45_000 });
  // Not paid yet: the transfer that arrived is listed, with no empty "Transaction" beside it.
  await expect(
    payment.getByRole('list', { name: 'Incoming transfers' }).getByRole('listitem'),
  ).toHaveCount(1);
  await expect(payment.getByText('Transaction', { exact: true })).toHaveCount(0);
  await snapBoth(tab, 'order-detail-2-underpaid', { noSidewaysScroll: true });
});
