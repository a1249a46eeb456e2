// Journey: the shopper's moment of payment says what is true. The demo link pays the demo payout
// address the API names (never a burn address) and says it is a test network; an order not paid
// yet says so on its thank-you page; the payment page shows what the API pushes, with no click: a
// partial payment asks for the remaining amount, an overpayment confirms the order and is named;
// the page then moves on to the paid order's thank-you page, which shows its payment transaction
// (and promises no email: the demo is an unsigned link). Screenshots at phone and laptop sizes.
import { expect, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { expectNoBase } from './support/chain-names.ts';
import { payUsdc } from './support/pay.ts';
import { snapBoth } from './support/screenshots.ts';

test('the demo link, a partial payment, an overpayment and the thank-you page', async ({
  page,
  context,
}) => {
  const stack = readStackInfo();
  const health = await (await context.request.get(`${stack.apiUrl}/api/health`)).json();
  const demoPayout: string = health.demo.payoutAddress;
  expect(demoPayout).toMatch(/^0x[0-9a-fA-F]{40}$/);

  await page.goto('/');
  const demo = page.getByRole('link', { name: 'Try Live Demo' });
  await expect(demo).toBeVisible();
  const demoUrl = new URL((await demo.getAttribute('href')) ?? '', stack.webUrl);
  expect(demoUrl.searchParams.get('paymentAddress')).toBe(demoPayout);
  expect(demoUrl.toString()).not.toMatch(/dead/i);
  await expect(page.getByTestId('demo-note')).toHaveText(
    `Demo on Local chain ${stack.chainId}, a test network: pay with test USDC, no real money.`,
  );
  await snapBoth(page, 'moment-1-landing');

  await page.goto('/universal-checkout-docs');
  await expect(page.getByTestId('demo-url')).toContainText(`paymentAddress=${demoPayout}`);
  await page.getByTestId('demo-note').scrollIntoViewIfNeeded();
  await snapBoth(page, 'moment-2-docs');

  await page.goto(demoUrl.toString());
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Phone').fill('555-0101');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Street address').fill('12 St James Square');
  await page.getByLabel('City').fill('Arlington');
  await page.getByLabel('State').selectOption('VA');
  await page.getByLabel('ZIP code').fill('22202');
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(page).toHaveURL(/\/universal-payment\/[0-9a-f-]{36}$/);
  const orderId = page.url().split('/').pop() ?? '';
  const address = (await page.getByTestId('payment-address').textContent()) ?? '';
  await expect(page.getByTestId('payment-amount')).toHaveText('0.25 USDC');

  // Before any payment the thank-you page says the order is not paid.
  await page.goto(`/thank-you/${orderId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your order is not paid yet');
  await expect(page.getByTestId('order-status')).toHaveText('Awaiting Payment');
  await expect(page.getByText('Total Paid')).toHaveCount(0);
  await expectNoBase(page);
  await snapBoth(page, 'moment-3-thank-you-pending');
  // Fake timers for the payment page (time flows until the clock is paused below).
  await page.clock.install();
  await page.getByRole('link', { name: 'Go to Payment Page' }).click();
  await expect(page).toHaveURL(`${stack.webUrl}/universal-payment/${orderId}`);
  await expect(page.getByTestId('payment-address')).toHaveText(address);
  await expect(page.getByTestId('payment-status')).toHaveText('Waiting for Payment');
  // The page's clock stops: neither the 10 s poll nor the 2 s hand-off to the thank-you page can
  // run, so what the page shows next is what the API pushes, with no click.
  await page.clock.pauseAt(Date.now() + 1000);

  const status = async () =>
    (
      await (
        await context.request.get(`${stack.apiUrl}/api/check-payment-status/${orderId}`)
      ).json()
    ).status;

  // A partial payment: the page asks for the rest, exactly.
  await payUsdc(stack, address, '0.10', 4);
  await expect.poll(status, { timeout: 30_000 }).toBe('underpaid');
  await expect(page.getByRole('heading', { name: 'Send the remaining' })).toBeVisible();
  await expect(page.getByTestId('payment-status')).toHaveText('Waiting for Payment');
  await expect(page.getByTestId('payment-amount')).toHaveText('0.15 USDC');
  await expect(page.getByTestId('amount-note')).toHaveText(
    'Received 0.10 of 0.25 USDC. Send the remaining 0.15 USDC to the same address to complete the payment.',
  );
  await snapBoth(page, 'moment-4-underpaid');

  // Then more than the rest: the page confirms the order and names the extra while it waits the
  // 2 s before the thank-you page (held here by the stopped clock).
  const txHash = await payUsdc(stack, address, '0.20', 4);
  await expect.poll(status, { timeout: 30_000 }).toMatch(/^(received|forwarded)$/);
  await expect(page.getByTestId('payment-status')).toHaveText('Payment Confirmed');
  await expect(page.getByRole('heading', { name: 'Payment Confirmed' })).toBeVisible();
  await expect(page.getByTestId('amount-note')).toContainText(
    'You sent 0.30 USDC, 0.05 USDC more than the 0.25 USDC due. Your order is paid',
  );
  await snapBoth(page, 'moment-5-overpaid');

  // Time flows again: the page moves on to the thank-you page by itself.
  await page.clock.resume();
  await expect(page).toHaveURL(`${stack.webUrl}/thank-you/${orderId}`, { timeout: 10_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you for your order!');
  await expect(page.getByTestId('order-status')).toHaveText('Confirmed');
  await expect(page.getByText('Total Paid')).toBeVisible();
  // Note: the local chain has no block explorer, so the transaction is shown, not linked.
  await expect(page.getByTestId('payment-tx')).toHaveText(
    `${txHash.slice(0, 10)}…${txHash.slice(-8)}`,
  );
  // Note: an unsigned universal link's order (the demo's) gets no emailed receipt, and the page
  // promises none (anyone can make such a link with any email address).
  await expect(page.getByText('A confirmation will be sent')).toHaveCount(0);
  await expectNoBase(page);
  await snapBoth(page, 'moment-6-thank-you-paid');
});
