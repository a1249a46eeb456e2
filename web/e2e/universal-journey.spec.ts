// Journey: an integrator builds a link in the payment link builder; a shopper opens it, checks
// out, pays from an anvil test account, sees the payment confirmed as the API pushes it (no click,
// no poll), and is returned to returnUrl.
import { expect, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { expectNoBase } from './support/chain-names.ts';
import { PAYMENT_SEEN_BADGE, PAYMENT_SEEN_HEADING, payUsdc } from './support/pay.ts';
import { snap } from './support/screenshots.ts';

const MERCHANT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'; // anvil account 3

test('a link-builder link goes through checkout and payment back to returnUrl', async ({
  page,
}) => {
  const stack = readStackInfo();
  await page.goto('/payment-link-builder');
  await page.getByRole('button', { name: 'Generate Payment Link' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Store name is required' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Error');

  await page.getByLabel('Store name').fill('Nebula Prints');
  await page.getByLabel(/^Payment address \(/).fill(MERCHANT);
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(page.getByLabel('External order ID')).toHaveValue(/^ORDER-\d+-[0-9A-Z]{9}$/);
  await page.getByRole('button', { name: 'Generate Payment Link' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Webhook URL is required' }),
  ).toBeVisible();
  await page.getByLabel('Webhook URL').fill('http://127.0.0.1:9/webhooks/usdc');
  await page.getByLabel('Title').fill('Poster');
  await page.getByLabel('Price (USDC)').fill('10');
  await page.getByLabel('Quantity').fill('2');
  await page.getByRole('button', { name: '+ Add Item' }).click();
  await page.getByLabel('Title').nth(1).fill('Sticker');
  await page.getByLabel('Price (USDC)').nth(1).fill('0.25');
  await page.getByLabel('Theme').selectOption('light');
  await page.getByLabel('Accent colour').fill('#db2777');
  await page.getByLabel('Return URL').fill(`${stack.webUrl}/integrator/thanks?ref=42`);
  await page.getByLabel('Ask for a shipping method').check();
  await page.getByLabel('Express shipping price').fill('17.99');
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByRole('button', { name: 'Generate Payment Link' }).click();
  const link = (await page.getByTestId('generated-link').textContent()) ?? '';
  expect(link).toContain('/universal-checkout?storeName=Nebula+Prints');
  await expect(page.getByLabel('Payment address (Local chain 31337)')).toBeVisible();
  await expectNoBase(page);
  await snap(page, 'universal-1-link-builder');

  // Fake timers from here (time flows until the clock is paused before the payment).
  await page.clock.install();
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nebula Prints');
  await expect(page.getByLabel('Email')).toHaveValue('grace@example.com');
  // Shipping without a free option or a standard price defaults to express
  // (docs/rules.md#shipping-methods).
  await expect(page.getByRole('radio', { name: /Express/ })).toBeChecked();
  await expect(page.getByTestId('order-total')).toHaveText('38.24 USDC');
  await page.getByLabel('Phone').fill('555-0101');
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Street address').fill('1 Navy Yard');
  await page.getByLabel('City').fill('Arlington');
  await page.getByLabel('State').selectOption('VA');
  await page.getByLabel('ZIP code').fill('22202');
  await expect(page.getByText(/Local chain 31337/).first()).toBeVisible();
  await expectNoBase(page);
  await snap(page, 'universal-2-checkout');
  await page.getByRole('button', { name: 'Continue to Payment' }).click();

  await expect(page).toHaveURL(/\/universal-payment\/[0-9a-f-]{36}$/);
  const orderId = page.url().split('/').pop() ?? '';
  await expect(page.getByTestId('order-number')).toHaveText(`#${orderId.slice(-8).toUpperCase()}`);
  await expect(page.getByTestId('payment-amount')).toHaveText('38.24 USDC');
  await expect(page.getByText(MERCHANT)).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/light/);
  const address = (await page.getByTestId('payment-address').textContent()) ?? '';
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId('payment-status')).toHaveText('Waiting for Payment');
  await expectNoBase(page);
  await snap(page, 'universal-3-payment');

  // The page's clock stops: neither the 10 s poll nor the 2 s hand-off to returnUrl can run, so
  // the confirmation below is the one the API pushes, with no click.
  await page.clock.pauseAt(Date.now() + 1000);
  await payUsdc(stack, address, '38.24', 2);
  await expect(page.getByTestId('payment-status')).toHaveText(PAYMENT_SEEN_BADGE, {
    timeout: 30_000,
  });
  await expect(page.getByRole('heading', { name: PAYMENT_SEEN_HEADING })).toBeVisible();
  await expect(page.getByTestId('payment-progress')).toContainText('Payment received');
  await expect(page.getByRole('button', { name: 'Check Payment Status' })).toBeDisabled();
  await expect(page).toHaveURL(/\/universal-payment\/[0-9a-f-]{36}$/);
  // 2 s of the page's time later it hands the shopper back to returnUrl.
  await page.clock.runFor(2500);
  await expect(page).toHaveURL(
    `${stack.webUrl}/integrator/thanks?ref=42&orderId=${orderId}&status=success`,
  );
});

test('a broken link shows the Checkout Error card', async ({ page }) => {
  await page.goto('/universal-checkout?storeName=Shop&items=not-json&paymentAddress=0x1');
  await expect(page.getByRole('heading', { name: 'Checkout Error' })).toBeVisible();
  await expect(
    page.getByText('Invalid items format. Items must be valid JSON array.'),
  ).toBeVisible();
  await page.goto('/universal-checkout?storeName=Shop');
  await expect(
    page.getByText(
      'Missing required parameters: storeName, items, and paymentAddress are required',
    ),
  ).toBeVisible();
  await snap(page, 'universal-4-checkout-error');
  await page.getByRole('link', { name: 'Go Home' }).click();
  await expect(page).toHaveURL('/');
});
