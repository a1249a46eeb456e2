// A paid order arrives on the dashboard (paid on the local chain, detected by the real worker),
// then the orders page filters it, moves it paid -> processing -> shipped (carrier and tracking on
// the order's page) -> completed, and exports the orders as CSV.
import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { shippingFor, storeCheckoutTotals } from '@store/shared';
import { readStackInfo } from '@store/stack/stack-info';
import { createProduct, createStore, payOrder, signUp, unique } from './admin-helpers.ts';
import { snapBoth } from './support/screenshots.ts';

const shopper = {
  customerEmail: 'grace@example.com',
  shippingAddress: {
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@example.com',
    phone: '555-0199',
    street: '1 Navy Yard',
    city: 'Arlington',
    state: 'VA',
    zipCode: '22202',
  },
};

async function placeOrder(
  request: APIRequestContext,
  storeId: string,
  product: { id: string; title: string; priceUsdc: string },
) {
  const items = [
    { productId: product.id, title: product.title, priceUsdc: product.priceUsdc, quantity: 1 },
  ];
  const totals = storeCheckoutTotals(items, shippingFor('free'));
  const response = await request.post('/api/orders', {
    data: {
      storeId,
      ...shopper,
      items,
      subtotalUsdc: totals.subtotalUsdc,
      shippingUsdc: totals.shippingUsdc,
      totalUsdc: totals.totalUsdc,
      shippingMethod: 'free',
    },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; totalUsdc: string };
}

test('a paid order shows on the dashboard and moves through fulfilment', async ({ page }) => {
  await signUp(page.request);
  const store = await createStore(page.request, unique('Orders Shop'));
  const lamp = await createProduct(page.request, store.id, { title: 'Lamp', priceUsdc: '10.00' });
  const paid = await placeOrder(page.request, store.id, {
    ...lamp,
    title: 'Lamp',
    priceUsdc: '10.00',
  });
  const pending = await placeOrder(page.request, store.id, {
    ...lamp,
    title: 'Lamp',
    priceUsdc: '10.00',
  });

  await payOrder(page.request, paid, 5);

  await page.goto('/admin');
  const recent = page.getByRole('region', { name: 'Recent Orders' });
  const paidRow = recent.getByRole('row', { name: new RegExp(`#${paid.id.slice(-8)}`) });
  await expect(paidRow.getByText('paid', { exact: true })).toHaveClass(/order-status-success/);
  await expect(paidRow).toContainText('grace@example.com');
  await expect(paidRow).toContainText(`${paid.totalUsdc} USDC`);
  const pendingRow = recent.getByRole('row', { name: new RegExp(`#${pending.id.slice(-8)}`) });
  await expect(pendingRow.getByText('pending', { exact: true })).toHaveClass(
    /order-status-warning/,
  );
  await expect(page.getByTestId('stat-Total Revenue')).toHaveText(`${paid.totalUsdc} USDC`);
  await expect(page.getByTestId('stat-Total Orders')).toHaveText('2');

  await page.getByRole('link', { name: 'Orders', exact: true }).click();
  await page.getByLabel('Status').selectOption('paid');
  await expect(page).toHaveURL(/status=paid/);
  const orders = page.getByRole('region', { name: 'Orders' });
  await expect(orders.getByRole('row')).toHaveCount(2);
  await page.getByLabel('Status').selectOption('');
  const row = orders.getByRole('row', { name: `Order #${paid.id.slice(-8)}` });
  await row.getByRole('button', { name: 'Mark processing' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Order marked processing' }),
  ).toBeVisible();
  await expect(row.getByText('processing', { exact: true })).toHaveClass(/order-status-neutral/);
  // Shipping takes a carrier and tracking number: the action opens the order's shipment form.
  await row.getByRole('link', { name: 'Mark shipped' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${paid.id}#ship$`));
  const shipment = page.getByRole('region', { name: 'Shipment' });
  await shipment.getByLabel('Carrier').fill('USPS');
  await shipment.getByLabel('Tracking number').fill('9400 1000 0000 0000 0000 00');
  await shipment.getByRole('button', { name: 'Mark as shipped' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Order marked shipped' })).toBeVisible();
  await expect(shipment).toContainText('9400 1000 0000 0000 0000 00');
  await page.getByRole('link', { name: '← All orders' }).click();
  await expect(row.getByText('shipped', { exact: true })).toHaveClass(/order-status-neutral/);
  await row.getByRole('button', { name: 'Mark completed' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Order marked completed' }),
  ).toBeVisible();
  await expect(row.getByText('completed', { exact: true })).toHaveClass(/order-status-neutral/);
  await expect(row.getByRole('button')).toHaveCount(0);
  await expect(row.getByRole('link', { name: 'Mark shipped' })).toHaveCount(0);
  // A pending order waits for its payment: no action.
  await expect(
    orders.getByRole('row', { name: `Order #${pending.id.slice(-8)}` }).getByRole('button'),
  ).toHaveCount(0);
  await page.getByLabel('Status').selectOption('completed');
  await expect(orders.getByRole('row')).toHaveCount(2);
  // Note: the button is disabled while the store's list loads; a click then does nothing.
  const listed = page.waitForResponse(
    (response) => response.url().includes(`/api/orders?`) && response.url().includes(store.id),
  );
  await page.getByLabel('Store').selectOption(store.id);
  await expect(page).toHaveURL(new RegExp(`storeId=${store.id}`));
  await listed;

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await readFile((await (await download).path()) ?? '', 'utf8');
  expect(csv.split('\r\n')[0]).toContain('"Order ID","Created At","Store","Customer","Status"');
  expect(csv).toContain(`"${paid.id}"`);
  expect(csv).toContain('"completed"');
  expect(csv).not.toContain(pending.id);
});

test('an export started before the chain is known waits for it and names it', async ({ page }) => {
  const stack = readStackInfo();
  await signUp(page.request);
  const store = await createStore(page.request, unique('Export Shop'));
  const lamp = await createProduct(page.request, store.id, { title: 'Lamp', priceUsdc: '10.00' });
  const paid = await placeOrder(page.request, store.id, {
    ...lamp,
    title: 'Lamp',
    priceUsdc: '10.00',
  });
  await payOrder(page.request, paid, 5);

  // GET /api/health (the chain's name) answers only once the export has been asked for.
  let release = () => {};
  const asked = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.context().route('**/api/health', async (route) => {
    await asked;
    await route.continue();
  });
  await page.goto(`/admin/orders?storeId=${store.id}`);
  const orders = page.getByRole('region', { name: 'Orders' });
  await expect(orders.getByRole('row', { name: `Order #${paid.id.slice(-8)}` })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  // Note: a moment for an export that would not wait to have written its file.
  await page.waitForTimeout(500);
  release();
  const csv = await readFile((await (await download).path()) ?? '', 'utf8');
  const [header, row] = csv.split('\r\n');
  const column = (header ?? '').split(',').indexOf('"Chain"');
  expect(column).toBeGreaterThan(0);
  expect((row ?? '').split(',')[column]).toBe(`"Local chain ${stack.chainId}"`);
  expect(csv).not.toContain('…');
  await snapBoth(page, 'admin-orders-export', { noSidewaysScroll: true });
});
