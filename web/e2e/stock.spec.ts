// Journey (issue 18): two shoppers race for the last unit. The first order holds it (the payment
// page says until when); the second shopper is refused before paying, and the storefront shows
// the product sold out, not unlimited.
import { type Browser, expect, type Page, test } from '@playwright/test';
import { createProduct, createStore, signUp, unique } from './admin-helpers.ts';
import { snap } from './support/screenshots.ts';

/** A shopper in a browser context of their own, at checkout with one `title` in the cart. */
async function shopperAtCheckout(browser: Browser, slug: string, productId: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/store/${slug}/product/${productId}`);
  await page.getByRole('button', { name: 'Buy Now' }).click();
  await expect(page).toHaveURL(`/store/${slug}/checkout`);
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByLabel('Phone').fill('555-0199');
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Street address').fill('1 Navy Yard');
  await page.getByLabel('City').fill('Arlington');
  await page.getByLabel('State').selectOption('VA');
  await page.getByLabel('ZIP code').fill('22202');
  return { page, close: () => context.close() };
}

const pay = (page: Page) => page.getByRole('button', { name: 'Proceed to Payment' }).click();

test('two shoppers race for the last unit: one holds it, the other is refused before paying', async ({
  browser,
  page,
}) => {
  await signUp(page.request);
  const store = await createStore(page.request, unique('Last Lamp'));
  const lamp = await createProduct(page.request, store.id, {
    title: 'Brass Lamp',
    priceUsdc: '40.00',
    inventory: 1,
  });
  const first = await shopperAtCheckout(browser, store.slug, lamp.id);
  const second = await shopperAtCheckout(browser, store.slug, lamp.id);

  await pay(first.page);
  await expect(first.page).toHaveURL(new RegExp(`/store/${store.slug}/payment/`));
  await expect(first.page.getByTestId('stock-hold')).toContainText('Your items are reserved until');
  await snap(first.page, 'stock-1-payment-hold');

  await pay(second.page);
  await expect(second.page.getByText('"Brass Lamp" is sold out')).toBeVisible();
  await expect(second.page).toHaveURL(`/store/${store.slug}/checkout`);
  await snap(second.page, 'stock-2-refused');

  // The storefront says so, and the lamp cannot be added again.
  await second.page.goto(`/store/${store.slug}/product/${lamp.id}`);
  await expect(second.page.getByText('Sold out').first()).toBeVisible();
  await expect(second.page.getByRole('button', { name: 'Sold out' }).first()).toBeDisabled();
  await second.page.setViewportSize({ width: 390, height: 844 });
  await snap(second.page, 'stock-3-sold-out-phone');
  await first.close();
  await second.close();
});
