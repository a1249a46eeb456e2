// Signed links in Chromium on the real stack: a merchant signs a universal-checkout link through
// the API; the same link with its price edited is refused by the checkout page before any form,
// the untouched one checks out and is paid from an anvil account; the link builder shows its
// errors beside the fields and, signed in, builds a signed link (with a discount code the
// checkout page shows and takes off).
import { expect, type Page, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { createStore, signUp, unique } from './admin-helpers.ts';
import { payUsdc } from './support/pay.ts';
import { snap } from './support/screenshots.ts';

const ALTERED = 'This payment link was altered after it was signed. Ask the seller for a new link.';
const PAYOUT = '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f'; // createStore's payout address

/** The query of a link signed for the merchant's new store (the page's cookie jar signs in). */
async function signedLinkQuery(page: Page): Promise<{ query: string; storeId: string }> {
  await signUp(page.request);
  const store = await createStore(page.request, unique('Signed Shop'));
  const link = new URLSearchParams({
    storeName: 'Signed Shop',
    items: JSON.stringify([{ title: 'Lamp', priceUsdc: '12.50', quantity: 2 }]),
    externalOrderId: unique('ext'),
    webhookUrl: 'http://127.0.0.1:9/webhooks/usdc',
  });
  const response = await page.request.post(`/api/stores/${store.id}/signed-links`, {
    data: { link: link.toString() },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { query: string };
  return { query: body.query, storeId: store.id };
}

function withPrice(query: string, price: string): string {
  const params = new URLSearchParams(query);
  params.set('items', (params.get('items') ?? '').replace('12.50', price));
  return params.toString();
}

test('an edited signed link is refused before the form; the untouched one pays', async ({
  page,
  context,
}) => {
  const stack = readStackInfo();
  const { query, storeId } = await signedLinkQuery(page);

  await page.goto(`/universal-checkout?${withPrice(query, '0.01')}`);
  await expect(page.getByRole('heading', { name: "This link can't be used" })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(ALTERED);
  await expect(page.getByLabel('Email')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Continue to Payment' })).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'signed-links-altered-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, 'signed-links-altered-1280');

  await page.goto(`/universal-checkout?${query}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Signed Shop');
  await expect(page.getByRole('note')).toContainText('Signed link');
  await expect(page.getByTestId('order-total')).toHaveText('25.00 USDC');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Phone').fill('555-0101');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Street address').fill('1 Main St');
  await page.getByLabel('City').fill('Springfield');
  await page.getByLabel('State').selectOption('IL');
  await page.getByLabel('ZIP code').fill('62701');
  await snap(page, 'signed-links-checkout');
  await page.getByRole('button', { name: 'Continue to Payment' }).click();

  await expect(page).toHaveURL(/\/universal-payment\/[0-9a-f-]{36}$/);
  const orderId = page.url().split('/').pop() ?? '';
  await expect(page.getByTestId('payment-amount')).toHaveText('25.00 USDC');
  await expect(page.getByText(PAYOUT)).toBeVisible();
  const order = await (await context.request.get(`${stack.apiUrl}/api/orders/${orderId}`)).json();
  expect(order).toMatchObject({ storeId, source: 'signed_link', payeeAddress: PAYOUT });
  const address = (await page.getByTestId('payment-address').textContent()) ?? '';
  await payUsdc(stack, address, '25.00', 4);
  // The page follows the payment by itself and goes on to the thank-you page once it is paid.
  await expect(page).toHaveURL(new RegExp(`/thank-you/${orderId}$`), { timeout: 60_000 });
  const paid = await context.request.get(`${stack.apiUrl}/api/check-payment-status/${orderId}`);
  expect((await paid.json()).paymentDetected).toBe(true);

  // The order is the store's: in the merchant's orders, its page saying where it came from.
  const number = `#${orderId.slice(-8)}`;
  await page.goto('/admin/orders');
  const row = page.getByRole('row', { name: `Order ${number}` });
  await expect(row).toContainText('Signed payment link');
  await expect(row).toContainText('25.00');
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await snap(page, `signed-links-admin-orders-${width}`);
  }
  await row.getByRole('link', { name: number }).click();
  await expect(page.getByTestId('order-source')).toHaveText('Signed payment link');
  await expect(page.getByText(PAYOUT).first()).toBeVisible();
  await expect(page.getByText('Forwarded to the merchant')).toBeVisible({ timeout: 30_000 });
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await snap(page, `signed-links-admin-order-${width}`);
  }
});

test('the link builder shows its errors beside the fields and builds no link', async ({ page }) => {
  await page.goto('/payment-link-builder');
  await page.getByLabel('Store name').fill('Nebula Prints');
  await page.getByLabel(/^Payment address \(/).fill('0xnot-an-address');
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await page.getByLabel('Webhook URL').fill('not a url');
  await page.getByLabel('Title').fill('Poster');
  await page.getByLabel('Price (USDC)').fill('-3');
  await page.getByRole('button', { name: 'Generate Payment Link' }).click();

  const address = page.getByLabel(/^Payment address \(/);
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await expect(address).toHaveAccessibleDescription(
    'Must be a valid Ethereum address (0x followed by 40 hexadecimal characters)',
  );
  await expect(page.getByLabel('Webhook URL')).toHaveAccessibleDescription(
    'Webhook URL must be a full URL such as https://shop.example.com/webhooks',
  );
  await expect(page.getByLabel('Price (USDC)')).toHaveAccessibleDescription(
    'Price must be a positive number',
  );
  await expect(page.getByTestId('generated-link')).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'signed-links-builder-errors-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, 'signed-links-builder-errors-1280');

  // Fixed, the errors go and the link is built, with its preview.
  await address.fill(PAYOUT);
  await page.getByLabel('Webhook URL').fill('https://shop.example.com/webhooks');
  await page.getByLabel('Price (USDC)').fill('3');
  await expect(address).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Generate Payment Link' }).click();
  await expect(page.getByTestId('generated-link')).toContainText('/universal-checkout?');
  await expect(page.getByTestId('link-preview')).toHaveText(
    `Preview: 1 item · 3.00 USDC · paid to ${PAYOUT}`,
  );
  await expect(page.getByTestId('link-signature')).toContainText('Not signed');
});

test('a signed-in merchant builds a signed link that the checkout page accepts', async ({
  page,
}) => {
  await signUp(page.request);
  const store = await createStore(page.request, unique('Builder Shop'));
  await page.goto('/payment-link-builder');
  await page.getByLabel('Sign for store').selectOption(store.id);
  await expect(page.getByLabel(/^Payment address \(/)).toHaveValue(PAYOUT);
  await page.getByLabel('Store name').fill('Builder Shop');
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await page.getByLabel('Webhook URL').fill('https://shop.example.com/webhooks');
  await page.getByLabel('Title').fill('Print');
  await page.getByLabel('Price (USDC)').fill('7.5');
  await page.getByRole('button', { name: 'Generate Signed Payment Link' }).click();
  await expect(page.getByTestId('link-signature')).toContainText(`Signed for ${store.name}`);
  const link = (await page.getByTestId('generated-link').textContent()) ?? '';
  const params = new URL(link).searchParams;
  expect(params.get('storeId')).toBe(store.id);
  expect(params.get('sigv')).toBe('1');
  expect(params.get('sig')).toMatch(/^[0-9a-f]{64}$/);
  await snap(page, 'signed-links-builder-signed');

  await page.goto(link);
  await expect(page.getByRole('note')).toContainText('Signed link');
  await expect(page.getByTestId('order-total')).toHaveText('7.50 USDC');
});

test('a signed link carrying a discount code: checked when signed, shown and taken off at checkout', async ({
  page,
}) => {
  await signUp(page.request);
  const store = await createStore(page.request, unique('Code Shop'));
  const made = await page.request.post(`/api/stores/${store.id}/discounts`, {
    data: { code: 'SAVE10', kind: 'percent', percentBps: 1000 },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(made.status(), await made.text()).toBe(201);
  await page.goto('/payment-link-builder');
  await expect(page.getByLabel('Discount code (optional)')).toHaveCount(0);
  await page.getByLabel('Sign for store').selectOption(store.id);
  await page.getByLabel('Store name').fill('Code Shop');
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await page.getByLabel('Webhook URL').fill('https://shop.example.com/webhooks');
  await page.getByLabel('Title').fill('Print');
  await page.getByLabel('Price (USDC)').fill('7.5');
  // A code the store does not have: the API's reason, no link.
  await page.getByLabel('Discount code (optional)').fill('NOPE10');
  await page.getByRole('button', { name: 'Generate Signed Payment Link' }).click();
  await expect(page.getByText('This discount code is not valid for this store')).toBeVisible();
  await expect(page.getByTestId('generated-link')).toHaveCount(0);

  await page.getByLabel('Discount code (optional)').fill('save10');
  await page.getByRole('button', { name: 'Generate Signed Payment Link' }).click();
  await expect(page.getByTestId('link-signature')).toContainText(`Signed for ${store.name}`);
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.getByLabel('Discount code (optional)').scrollIntoViewIfNeeded();
    await snap(page, `signed-links-builder-discount-${width}`);
  }
  await expect(page.getByTestId('link-preview')).toContainText('· discount code SAVE10');
  const link = (await page.getByTestId('generated-link').textContent()) ?? '';
  expect(new URL(link).searchParams.get('discountCode')).toBe('SAVE10');

  await page.goto(link);
  await expect(page.getByRole('note')).toContainText('Signed link');
  await expect(page.getByTestId('order-discount').first()).toHaveText('−0.75 USDC');
  await expect(page.getByTestId('order-total')).toHaveText('6.75 USDC');
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await snap(page, `signed-links-discount-checkout-${width}`);
  }
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Phone').fill('555-0101');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Street address').fill('1 Main St');
  await page.getByLabel('City').fill('Springfield');
  await page.getByLabel('State').selectOption('IL');
  await page.getByLabel('ZIP code').fill('62701');
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(page).toHaveURL(/\/universal-payment\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('payment-amount')).toHaveText('6.75 USDC');
});

test('the docs show how to sign a link on a server', async ({ page }) => {
  await page.goto('/universal-checkout-docs');
  const section = page.getByRole('region', { name: 'Signing links on your server' });
  await expect(section).toContainText("createHmac('sha256', LINK_SECRET)");
  await expect(section).toContainText(ALTERED);
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: `e2e/screenshots/signed-links-docs-${width}.png` });
  }
});
