// Journey: a discount code. The merchant creates SAVE10 (10% off, minimum 20.00) on the admin's
// Discounts page; a shopper adds two 15.00 candles, types an unknown code (the API's reason shows),
// then "save10": the summary shows the discount and the lower total, the order placed has that
// total on its payment page, and the merchant's order page and Discounts list show the code.
// Screenshots at 390 and 1280 px, with no WCAG 2.1 AA violation at either size.
import { expect, type Page, test } from '@playwright/test';
import { DISCOUNT_MESSAGES } from '@store/shared';
import { createProduct, createStore, signUp, unique } from './admin-helpers.ts';
import { accessibilityViolations } from './support/accessibility.ts';
import { SCREEN_SIZES, snapBoth } from './support/screenshots.ts';

async function expectAccessible(page: Page) {
  for (const viewport of Object.values(SCREEN_SIZES)) {
    await page.setViewportSize(viewport);
    expect(await accessibilityViolations(page)).toEqual([]);
  }
  await page.setViewportSize(SCREEN_SIZES.laptop);
}

test('a shopper applies a discount code at checkout and pays the lower total', async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page.request);
  const store = await createStore(page.request, unique('Candle Shop'));
  await createProduct(page.request, store.id, { title: 'Beeswax candle', priceUsdc: '15.00' });

  // The merchant's Discounts page: New code.
  await page.setViewportSize(SCREEN_SIZES.laptop);
  await page.goto('/admin');
  await page
    .getByRole('navigation', { name: 'Admin' })
    .getByRole('link', { name: 'Discounts' })
    .click();
  await expect(page).toHaveURL(/\/admin\/discounts/);
  await page
    .getByRole('combobox', { name: 'Store', exact: true })
    .selectOption({ label: store.name });
  await expect(page.getByText('No discount codes yet.')).toBeVisible();
  await page.getByRole('button', { name: 'New code' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Code').fill('save10');
  await dialog.getByLabel('Percent off').fill('10');
  await dialog.getByLabel('Minimum order (USDC)').fill('20');
  await snapBoth(page, 'discounts-1-new-code');
  await dialog.getByRole('button', { name: 'Create code' }).click();
  const rows = page.getByRole('region', { name: 'Discount codes' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole('rowheader')).toHaveText('SAVE10');
  await expect(rows.first().locator('[data-label="Discount"]')).toHaveText('10% off');
  await expect(rows.first().locator('[data-label="Minimum order"]')).toHaveText('20.00 USDC');

  // The shopper: two candles (30.00), free shipping, 8% tax.
  await page.goto(`/store/${store.slug}`);
  await page.getByRole('button', { name: 'Add to Cart: Beeswax candle' }).click();
  await page.getByRole('button', { name: 'Add to Cart: Beeswax candle' }).click();
  await expect(page.getByTestId('cart-total')).toHaveText('30.00 USDC');
  await page.getByRole('link', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(`/store/${store.slug}/checkout`);
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Phone').fill('555-0100');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Street address').fill('1600 Pennsylvania Ave NW');
  await page.getByLabel('City').fill('Washington');
  await page.getByLabel('State').selectOption('DC');
  await page.getByLabel('ZIP code').fill('20500');
  // 30.00 + 2.40 tax
  await expect(page.getByTestId('order-total')).toHaveText('32.40 USDC');

  const code = page.getByRole('textbox', { name: 'Discount code' });
  await code.fill('NOPE10');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: DISCOUNT_MESSAGES.unknown }),
  ).toBeVisible();
  await expect(page.getByTestId('order-total')).toHaveText('32.40 USDC');

  await code.fill('save10');
  await code.press('Enter');
  await expect(page.getByText('SAVE10 applied: 10% off')).toBeVisible();
  await expect(page.getByTestId('order-discount')).toHaveText('−3.00 USDC');
  // 30.00 - 3.00 = 27.00; tax 8% 2.16: 29.16.
  await expect(page.getByTestId('order-total')).toHaveText('29.16 USDC');
  await expect(page).toHaveURL(`/store/${store.slug}/checkout`);
  await snapBoth(page, 'discounts-2-checkout', { noSidewaysScroll: true });
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page).toHaveURL(new RegExp(`/store/${store.slug}/payment/[0-9a-f-]{36}$`));
  const orderId = page.url().split('/').pop() ?? '';
  await expect(page.getByTestId('payment-amount')).toHaveText('29.16 USDC');

  // The order as the server stored it, and the merchant's order page.
  const stored = await (await page.request.get(`/api/orders/${orderId}`)).json();
  expect(stored).toMatchObject({
    subtotalUsdc: '30.00',
    discountCode: 'SAVE10',
    discountUsdc: '3.00',
    taxUsdc: '2.16',
    totalUsdc: '29.16',
  });
  await page.goto(`/admin/orders/${orderId}`);
  await expect(page.getByText('Discount (SAVE10)')).toBeVisible();
  await expect(page.getByText('−3.00 USDC')).toBeVisible();
  await snapBoth(page, 'discounts-3-order', { noSidewaysScroll: true });

  // The Discounts list counts the pending order as a use (within its hold), not as paid.
  await page.goto(`/admin/discounts?storeId=${store.id}`);
  await expect(rows.first().locator('[data-label="Uses"]')).toHaveText('1');
  await expect(rows.first().locator('[data-label="Paid orders"]')).toHaveText('0');
  await snapBoth(page, 'discounts-4-list', { noSidewaysScroll: true });
  await expectAccessible(page);

  // Deactivated: the checkout refuses it with its reason.
  await rows.first().getByRole('button', { name: 'Deactivate SAVE10' }).click();
  await expect(rows.first().locator('[data-label="Status"]')).toHaveText('Inactive');
  const check = await page.request.post('/api/discount-codes/check', {
    data: { storeId: store.id, code: 'save10' },
  });
  expect(check.status()).toBe(422);
  expect((await check.json()).error.message).toBe(DISCOUNT_MESSAGES.inactive);
});
