// Journey: browse a store, search, add to cart, check out with the validation messages, reach the
// payment page with QR and amount, pay from an anvil test account, see the payment confirmed as
// the API pushes it (no click, no poll), land on the thank-you page, find the receipt in the
// local inbox.
import { expect, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { expectNoBase } from './support/chain-names.ts';
import { PAYMENT_SEEN_BADGE, PAYMENT_SEEN_HEADING, payUsdc } from './support/pay.ts';
import { snap } from './support/screenshots.ts';

test('a shopper buys from a store and pays in USDC on the local chain', async ({
  page,
  context,
}) => {
  const stack = readStackInfo();
  const slug = stack.store.slug;

  await page.goto(`/store/${slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Aurora Goods');
  for (const badge of ['3 Products', 'Web3 Enabled']) {
    await expect(page.getByRole('list', { name: 'Store badges' }).getByText(badge)).toBeVisible();
  }
  // Note: the seeded store's payout wallet never signed, so it is not 'Verified Store' (issue 19).
  await expect(page.getByText('Verified Store')).toHaveCount(0);
  await expect(page.getByRole('article')).toHaveCount(3);
  // The store's light theme and colours apply while its pages are shown.
  await expect(page.locator('html')).toHaveClass(/light/);
  expect(
    await page.evaluate(() => document.documentElement.style.getPropertyValue('--primary')),
  ).toBe('#0f766e');
  await expect(page.getByRole('button', { name: 'Checkout' })).toBeDisabled();
  await snap(page, 'store-1-storefront');

  const search = page.getByPlaceholder('Search products...');
  await search.fill('mug');
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(page.getByRole('article')).toContainText('Ceramic Mug');
  await search.fill('telescope');
  await expect(page.getByRole('heading', { name: 'No products match your search' })).toBeVisible();
  await expect(page.getByText('Try adjusting your search terms.')).toBeVisible();
  await search.fill('');

  await page.getByRole('button', { name: 'Add to Cart: Aurora Hoodie' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added to cart' })).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('1 item');
  await expect(page.getByTestId('cart-total')).toHaveText('45.00 USDC');

  await page.getByRole('link', { name: 'View Ceramic Mug' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ceramic Mug');
  await expect(page.getByRole('button', { name: 'Decrease quantity' })).toBeDisabled();
  await page.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(page.getByLabel('Quantity', { exact: true })).toHaveValue('2');
  await page.getByRole('tab', { name: 'Reviews' }).click();
  await expect(page.getByText('No reviews yet')).toBeVisible();
  await snap(page, 'store-2-product');
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('3 items');
  await expect(page.getByTestId('cart-total')).toHaveText('70.00 USDC');

  await page.getByRole('link', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(`/store/${slug}/checkout`);
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  for (const message of [
    'Invalid email address',
    'Phone number is required',
    'First name is required',
    'Last name is required',
    'Street address is required',
    'City is required',
    'State is required',
    'ZIP code is required',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await snap(page, 'store-3-checkout-errors');

  await page.getByLabel('Email').fill('ada@example.com');
  await expect(page.getByText('Invalid email address')).toHaveCount(0);
  await page.getByLabel('Phone').fill('555-0100');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Street address').fill('1600 Pennsylvania Ave NW');
  await page.getByLabel('City').fill('Washington');
  await page.getByLabel('State').selectOption('DC');
  await page.getByLabel('ZIP code').fill('20500');
  await page.getByRole('radio', { name: /Standard/ }).check();
  // 70.00 + 12.99 shipping + 5.60 (8% tax)
  await expect(page.getByTestId('order-total')).toHaveText('88.59 USDC');
  // Fake timers for the payment page (time flows until the clock is paused below).
  await page.clock.install();
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();

  await expect(
    page.getByRole('status').filter({ hasText: 'Order created successfully' }),
  ).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/store/${slug}/payment/[0-9a-f-]{36}$`));
  const orderId = page.url().split('/').pop() ?? '';
  await expect(page.getByTestId('payment-status')).toHaveText('Waiting for Payment');
  await expect(page.getByTestId('payment-amount')).toHaveText('88.59 USDC');
  await expect(page.getByRole('img', { name: /QR code of the payment address/ })).toBeVisible();
  await expect(page.getByTestId('short-order-id')).toHaveText(`#${orderId.slice(-8)}`);
  await expect(page.getByTestId('countdown')).toHaveText(/^(?:\d+d )?\d+:\d{2}:\d{2}$/);
  await expect(page.getByText(stack.usdc)).toBeVisible();
  // The local chain is named as such, and no card on-ramp is offered for it (none sells there).
  await expect(page.getByText(/Local chain 31337/).first()).toBeVisible();
  await expectNoBase(page);
  await expect(page.getByRole('link', { name: 'Buy USDC with Card' })).toHaveCount(0);
  await snap(page, 'store-4-payment');

  const address = (await page.getByTestId('payment-address').textContent()) ?? '';
  await expect(
    page.getByRole('status').filter({ hasText: 'Order created successfully' }),
  ).toBeHidden();
  // The page's clock stops: neither the 10 s poll nor the 2 s hand-off to the thank-you page can
  // run, so the confirmation below is the one the API pushes, with no click.
  await page.clock.pauseAt(Date.now() + 1000);
  const txHash = await payUsdc(stack, address, '88.59', 1);
  await expect(page.getByTestId('payment-status')).toHaveText(PAYMENT_SEEN_BADGE, {
    timeout: 30_000,
  });
  await expect(page.getByRole('heading', { name: PAYMENT_SEEN_HEADING })).toBeVisible();
  await expect(page.getByTestId('payment-progress')).toContainText('Payment received');
  await expect(page.getByRole('button', { name: 'Check Payment Status' })).toBeDisabled();
  await snap(page, 'store-5-confirmed');

  // Time flows again: 2 s later the page moves on to the thank-you page by itself.
  await page.clock.resume();
  await expect(page).toHaveURL(`/store/${slug}/thank-you/${orderId}`, { timeout: 10_000 });
  await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
  await expect(page.getByText('USDC (Cryptocurrency)')).toBeVisible();
  await expect(page.getByText('Confirmed', { exact: true })).toBeVisible();
  await expect(page.getByText('5-7 business days')).toBeVisible();
  await expect(page.getByText('88.59 USDC')).toBeVisible();
  await expect(page.getByText('5.60 USDC')).toBeVisible();
  await expect(page.getByText('A confirmation will be sent to ada@example.com')).toBeVisible();
  await expectNoBase(page);
  await snap(page, 'store-6-thank-you');

  // The receipt arrives in the local inbox: the lines, the total and the payment transaction.
  type Mail = { id: number; to: string[]; subject: string; text: string };
  const receipt = async () =>
    (
      (await (await context.request.get(`${stack.mailInboxUrl}/api/messages`)).json()) as Mail[]
    ).find((mail) => mail.to.includes('ada@example.com') && mail.text.includes(orderId.slice(-8)));
  await expect.poll(receipt, { timeout: 30_000 }).toBeTruthy();
  const mail = (await receipt()) as Mail;
  expect(mail.subject).toBe(`Your receipt from Aurora Goods: order #${orderId.slice(-8)}`);
  expect(mail.text).toContain('Aurora Hoodie × 1: 45.00 USDC');
  expect(mail.text).toContain('Ceramic Mug × 2: 25.00 USDC');
  expect(mail.text).toContain('Tax: 5.60 USDC');
  expect(mail.text).toContain('Total paid: 88.59 USDC');
  // Note: the local chain has no block explorer, so the receipt names the bare transaction hash.
  expect(mail.text).toContain(`Payment transaction: ${txHash}`);
  await page.goto(stack.mailInboxUrl);
  await page.getByRole('link', { name: mail.subject }).click();
  await expect(page.getByRole('heading', { name: mail.subject })).toBeVisible();
  await snap(page, 'store-7-receipt-in-local-inbox');

  // The cart was cleared after the order; leaving the store resets the theme.
  await page.goto(`/store/${slug}`);
  await expect(page.getByTestId('cart-count')).toHaveText('0 items');
  await page.goto('/');
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(
    await page.evaluate(() => document.documentElement.style.getPropertyValue('--primary')),
  ).toBe('');
});
