// Journey: who bought. Three people order from a new store (one of them twice, with her address in
// another case), two orders are paid on the local chain; the Customers page (from the admin
// navigation) lists one row per person with orders, paid orders, total paid and dates, newest
// last order first; the search finds a name; a customer's page lists her orders, each linked to
// its page. Screenshots at 390 and 1280 px, with no WCAG 2.1 AA violation at either size.
import { expect, type Page, test } from '@playwright/test';
import { formatOrderNumber, shippingFor, storeCheckoutTotals } from '@store/shared';
import { createProduct, createStore, payOrder, signUp, unique } from './admin-helpers.ts';
import { accessibilityViolations } from './support/accessibility.ts';
import { SCREEN_SIZES, snapBoth } from './support/screenshots.ts';

/** An order of one candle by `email` with that name, placed through the API. */
async function orderAs(
  page: Page,
  storeId: string,
  product: { id: string; title: string; priceUsdc: string },
  email: string,
  [firstName, lastName]: [string, string],
) {
  const items = [
    { productId: product.id, title: product.title, priceUsdc: product.priceUsdc, quantity: 1 },
  ];
  const totals = storeCheckoutTotals(items, shippingFor('free'));
  const response = await page.request.post('/api/orders', {
    data: {
      storeId,
      customerEmail: email,
      shippingAddress: {
        firstName,
        lastName,
        email,
        phone: '555-0100',
        street: '12 Hudson Street',
        city: 'New York',
        state: 'NY',
        zipCode: '10001',
      },
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

async function expectAccessible(page: Page) {
  for (const viewport of Object.values(SCREEN_SIZES)) {
    await page.setViewportSize(viewport);
    expect(await accessibilityViolations(page)).toEqual([]);
  }
}

test("the customers page lists who bought, searches them and opens a customer's orders", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page.request);
  const store = await createStore(page.request, unique('Candle Shop'));
  const created = await createProduct(page.request, store.id, {
    title: 'Beeswax candle',
    priceUsdc: '12.00',
    inventory: 10,
  });
  const product = { id: created.id, title: 'Beeswax candle', priceUsdc: '12.00' };
  const ada1 = await orderAs(page, store.id, product, 'ada@example.com', ['Ada', 'Lovelace']);
  const grace = await orderAs(page, store.id, product, 'grace@example.com', ['Grace', 'Hopper']);
  const ada2 = await orderAs(page, store.id, product, 'Ada@Example.com', ['Ada', 'Lovelace']);
  await payOrder(page.request, ada1, 6);
  await payOrder(page.request, grace, 6);

  await page.setViewportSize(SCREEN_SIZES.laptop);
  await page.goto('/admin');
  await page
    .getByRole('navigation', { name: 'Admin' })
    .getByRole('link', { name: 'Customers' })
    .click();
  await expect(page).toHaveURL(/\/admin\/customers/);
  await page
    .getByRole('combobox', { name: 'Store', exact: true })
    .selectOption({ label: store.name });
  const table = page.getByRole('region', { name: 'Customers' });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  // Newest last order first: Ada (her second order), then Grace.
  await expect(rows.nth(0).getByRole('rowheader')).toContainText('Ada Lovelace');
  await expect(rows.nth(0).getByRole('rowheader')).toContainText('ada@example.com');
  await expect(rows.nth(0).locator('[data-label="Orders"]')).toHaveText('2');
  await expect(rows.nth(0).locator('[data-label="Paid orders"]')).toHaveText('1');
  await expect(rows.nth(0).locator('[data-label="Total paid"]')).toHaveText(
    `${ada1.totalUsdc} USDC`,
  );
  await expect(rows.nth(1).getByRole('rowheader')).toContainText('Grace Hopper');
  await snapBoth(page, 'customers-list', { noSidewaysScroll: true });
  await expectAccessible(page);

  // The search finds a name.
  await page.setViewportSize(SCREEN_SIZES.laptop);
  await page.getByLabel('Search').fill('hopper');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('grace@example.com');
  await page.getByLabel('Search').fill('');
  await expect(rows).toHaveCount(2);

  // Ada's page: her summary and both orders, each linked to its page.
  await rows.nth(0).getByRole('link', { name: 'Ada Lovelace' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ada Lovelace');
  await expect(page.getByTestId('customer-Orders')).toHaveText('2');
  await expect(page.getByTestId('customer-Paid orders')).toHaveText('1');
  const orders = page.getByRole('region', { name: 'Orders' }).locator('tbody tr');
  await expect(orders).toHaveCount(2);
  await expect(orders.nth(0)).toContainText(formatOrderNumber(ada2.id));
  await expect(orders.nth(1)).toContainText(formatOrderNumber(ada1.id));
  await expect(orders.nth(1)).toContainText('paid');
  await snapBoth(page, 'customers-detail', { noSidewaysScroll: true });
  await expectAccessible(page);
  await page.setViewportSize(SCREEN_SIZES.laptop);
  await orders
    .nth(1)
    .getByRole('link', { name: formatOrderNumber(ada1.id) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${ada1.id}$`));
});
