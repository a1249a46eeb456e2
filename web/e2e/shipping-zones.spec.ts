// Journey (issue 32): tax and shipping by country. A merchant adds a Germany zone (19% tax, its own
// standard and express prices, no free shipping) beside the store's rest-of-world settings; a
// German shopper sees the zone's methods once Germany is chosen, picks one and pays the total the
// server computed; a store that charges no tax shows no tax row at all. Screenshots at phone and
// laptop sizes, axe on the settings and the checkout.
import { expect, type Page, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { createProduct, createStore, signUp, unique } from './admin-helpers.ts';
import { accessibilityViolations } from './support/accessibility.ts';
import { payUsdc } from './support/pay.ts';
import { snapBoth } from './support/screenshots.ts';

async function fillGermanAddress(page: Page) {
  await page.getByLabel('Country').selectOption('DE');
  await page.getByLabel('Email').fill('lena@example.de');
  await page.getByLabel('Phone').fill('+49 30 1234567');
  await page.getByLabel('First name').fill('Lena');
  await page.getByLabel('Last name').fill('Schmidt');
  await page.getByLabel('Street address').fill('Unter den Linden 1');
  await page.getByLabel('City').fill('Berlin');
  await page.getByLabel('Postal code').fill('10117');
}

test("a German shopper gets the German zone's methods and tax and pays that total", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const stack = readStackInfo();
  await signUp(page.request);
  const store = await createStore(page.request, unique('Zoned Goods'));
  const kettle = await createProduct(page.request, store.id, {
    title: 'Kettle',
    priceUsdc: '50.00',
  });

  // The merchant's zones: a wrong country code is refused beside its field, then saved.
  await page.goto(`/admin/stores/${store.id}`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Add zone' }).click();
  const zone = page.getByTestId('zone-0');
  await zone.getByLabel('Zone name').fill('Germany');
  await zone.getByLabel('Countries').fill('DE, XX');
  await zone.getByLabel('Tax rate (%)').fill('19');
  await zone.getByLabel('Offer Free').uncheck();
  await zone.getByLabel('Standard price (USDC)').fill('4.90');
  await zone.getByLabel('Express price (USDC)').fill('9.90');
  await page.getByRole('button', { name: 'Save Zones' }).click();
  await expect(
    zone.getByText('Country must be an ISO 3166-1 alpha-2 code such as DE'),
  ).toBeVisible();
  await zone.getByLabel('Countries').fill('DE');
  await page.getByRole('button', { name: 'Save Zones' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Zones saved' })).toBeVisible();
  await zone.scrollIntoViewIfNeeded();
  await snapBoth(page, 'zones-1-admin-settings', { noSidewaysScroll: true });
  expect(await accessibilityViolations(page)).toEqual([]);
  const saved = await (await page.request.get(`/api/stores/${store.slug}`)).json();
  expect(saved.shippingZones).toEqual([
    {
      name: 'Germany',
      countries: ['DE'],
      taxRateBps: 1900,
      shippingOptions: {
        free: { enabled: false, priceUsdc: '0.00', delivery: expect.any(String) },
        standard: { enabled: true, priceUsdc: '4.90', delivery: expect.any(String) },
        express: { enabled: true, priceUsdc: '9.90', delivery: expect.any(String) },
      },
    },
  ]);

  // The checkout: the United States (rest of world) first, then Germany's zone.
  // The product page lists each zone's methods, then the rest of the world's.
  await page.goto(`/store/${store.slug}/product/${kettle.id}`);
  await page.getByRole('tab', { name: 'Shipping' }).click();
  const shipping = page.getByTestId('shipping-tab');
  await expect(shipping).toContainText('Germany (Germany)');
  await expect(shipping).toContainText('Standard (5-7 business days): 4.90 USDC');
  await expect(shipping).toContainText('Rest of world');
  await expect(shipping).toContainText('Standard (5-7 business days): 12.99 USDC');
  await page.getByRole('button', { name: 'Buy Now' }).click();
  await expect(page).toHaveURL(`/store/${store.slug}/checkout`);
  await expect(page.getByTestId('shipping-zone')).toHaveText(
    'Shipping to United States: Rest of world rates',
  );
  await expect(page.getByRole('radio')).toHaveCount(3);
  await fillGermanAddress(page);
  await expect(page.getByTestId('shipping-zone')).toHaveText('Shipping to Germany');
  await expect(page.getByRole('radio')).toHaveCount(2);
  await expect(page.getByRole('radio', { name: /Standard/ })).toBeChecked();
  await page.getByRole('radio', { name: /Express/ }).check();
  await expect(page.getByText('Estimated tax (19%)').first()).toBeVisible();
  // 50.00 + 9.90 + 19% of 50.00 (9.50)
  await expect(page.getByTestId('order-total').first()).toHaveText('69.40 USDC');
  // The discount code field is drawn as the other fields are (colours, border, shape, type); its
  // height is its Apply button's, beside it.
  const look = (input: ReturnType<Page['locator']>) =>
    input.evaluate((input) => {
      const style = getComputedStyle(input);
      return {
        background: style.backgroundColor,
        color: style.color,
        border: `${style.borderTopWidth} ${style.borderTopStyle} ${style.borderTopColor}`,
        radius: style.borderTopLeftRadius,
        font: `${style.fontSize} ${style.fontFamily}`,
      };
    });
  expect(await look(page.getByRole('textbox', { name: 'Discount code' }))).toEqual(
    await look(page.getByRole('textbox', { name: 'City' })),
  );
  await snapBoth(page, 'zones-2-checkout-germany', { noSidewaysScroll: true });
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Proceed to Payment' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/store/${store.slug}/payment/[0-9a-f-]{36}$`));
  const orderId = page.url().split('/').pop() ?? '';
  const order = await (await context.request.get(`/api/orders/${orderId}`)).json();
  expect(order).toMatchObject({
    subtotalUsdc: '50.00',
    shippingUsdc: '9.90',
    taxUsdc: '9.50',
    totalUsdc: '69.40',
  });
  await expect(page.getByTestId('payment-amount')).toHaveText('69.40 USDC');
  const address = (await page.getByTestId('payment-address').textContent()) ?? '';
  await payUsdc(stack, address, '69.40', 7);
  await expect(page).toHaveURL(`/store/${store.slug}/thank-you/${orderId}`, { timeout: 45_000 });
  await expect(page.getByText('Estimated tax')).toBeVisible();
  await expect(page.getByText('69.40 USDC').first()).toBeVisible();
  const paid = await (await context.request.get(`/api/orders/${orderId}`)).json();
  expect(paid).toMatchObject({ status: 'paid', totalUsdc: '69.40', taxUsdc: '9.50' });
});

test('a store that charges no tax shows no tax row at checkout', async ({ page }) => {
  await signUp(page.request);
  const store = await createStore(page.request, unique('Tax Free'));
  const put = await page.request.put(`/api/stores/${store.id}`, { data: { taxRateBps: 0 } });
  expect(put.status()).toBe(200);
  const mug = await createProduct(page.request, store.id, { title: 'Mug', priceUsdc: '12.00' });
  await page.goto(`/store/${store.slug}/product/${mug.id}`);
  await page.getByRole('button', { name: 'Buy Now' }).click();
  await expect(page).toHaveURL(`/store/${store.slug}/checkout`);
  await expect(page.getByTestId('order-total').first()).toHaveText('12.00 USDC');
  const summary = page.locator('.order-summary');
  await expect(summary).toContainText('Shipping');
  await expect(summary).not.toContainText(/tax/i);
  await expect(page.getByTestId('shipping-zone')).toHaveCount(0);
  await snapBoth(page, 'zones-3-checkout-no-tax', { noSidewaysScroll: true });
  expect(await accessibilityViolations(page)).toEqual([]);
});
