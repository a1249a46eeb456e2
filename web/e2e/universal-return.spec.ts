// Journey: the universal flow finishes where the integrator expects. A payment found by the
// page's automatic detection (no manual check) returns the shopper to returnUrl with orderId and
// status=success; after the deposit address request fails, Try Again asks for one again and the
// page becomes payable instead of waiting forever on 'Generating payment address…'.
import { expect, type Page, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { PAYMENT_SEEN_BADGE, payUsdc } from './support/pay.ts';
import { snap } from './support/screenshots.ts';

const MERCHANT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'; // anvil account 3
const SIZES = { phone: { width: 390, height: 844 }, laptop: { width: 1280, height: 800 } };

/**
 * A universal checkout link with the shopper's details prefilled
 * (docs/rules.md#checkout-link-parameters).
 */
function checkoutLink(extra: Record<string, string>): string {
  const params = new URLSearchParams({
    storeName: 'Harbour Books',
    items: JSON.stringify([{ title: 'Atlas', priceUsdc: '3.20', quantity: 1 }]),
    paymentAddress: MERCHANT,
    theme: 'light',
    accentColor: '#10b981',
    customerEmail: 'ada@example.com',
    phone: '555-0101',
    firstName: 'Ada',
    lastName: 'Lovelace',
    street: '12 St James Square',
    city: 'Arlington',
    state: 'VA',
    zipCode: '22202',
    ...extra,
  });
  return `/universal-checkout?${params}`;
}

/** Submits the prefilled checkout and answers the new order's id. */
async function checkOut(page: Page, link: string): Promise<string> {
  await page.goto(link);
  await expect(page.getByTestId('order-total')).toHaveText('3.20 USDC');
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(page).toHaveURL(/\/universal-payment\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop() ?? '';
}

test('automatic detection returns the shopper to returnUrl with orderId and status=success', async ({
  page,
}) => {
  const stack = readStackInfo();
  const returnUrl = `${stack.webUrl}/integrator/thanks?ref=77`;
  // On a phone the total and the pay button are on the first screen, beside each other.
  await page.setViewportSize(SIZES.phone);
  await page.goto(checkoutLink({ returnUrl }));
  const pay = page.getByRole('button', { name: 'Continue to Payment' });
  await expect(page.getByTestId('pay-bar-total')).toHaveText('3.20 USDC');
  await expect(page.getByTestId('pay-bar-total')).toBeInViewport();
  await expect(pay).toBeInViewport();
  const [totalBox, payBox] = [
    await page.getByTestId('pay-bar-total').boundingBox(),
    await pay.boundingBox(),
  ];
  expect(Math.abs((totalBox?.y ?? 0) - (payBox?.y ?? 999))).toBeLessThan(60);
  await snap(page, 'universal-return-0-checkout-phone');
  await page.setViewportSize(SIZES.laptop);
  await expect(page.getByTestId('pay-bar-total')).toBeHidden();
  await expect(pay).toBeVisible();
  await snap(page, 'universal-return-0-checkout-laptop');
  await page.setViewportSize(SIZES.phone);
  const orderId = await checkOut(page, checkoutLink({ returnUrl }));
  const address = (await page.getByTestId('payment-address').textContent()) ?? '';
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  await payUsdc(stack, address, '3.20', 5);
  // No click: the page's own detection (push or the 10 s poll) confirms and hands over.
  await expect(page.getByTestId('payment-status')).toHaveText(PAYMENT_SEEN_BADGE, {
    timeout: 30_000,
  });
  await page.waitForURL(
    `${stack.webUrl}/integrator/thanks?ref=77&orderId=${orderId}&status=success`,
    { timeout: 10_000 },
  );
});

test('Try Again after a failed deposit address request asks for one again', async ({ page }) => {
  let refused = 0;
  // The API answers the first deposit address request with 503 (as when no wallet is free).
  await page.route('**/api/orders/*/assign-payment-wallet', async (route) => {
    if (refused > 0) return route.fallback();
    refused++;
    await route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { message: 'No payment wallet available' } }),
    });
  });
  await checkOut(page, checkoutLink({}));
  await expect(page.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
  await expect(page.getByText('No payment address')).toBeVisible();
  expect(refused).toBe(1);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'universal-return-1-wallet-failed-phone');

  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByTestId('payment-address')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId('payment-status')).toHaveText('Waiting for Payment');
  await expect(page.getByText('Generating payment address…')).toHaveCount(0);
  await expect(page.getByTestId('payment-amount')).toHaveText('3.20 USDC');
  await snap(page, 'universal-return-2-after-try-again-phone');
});
