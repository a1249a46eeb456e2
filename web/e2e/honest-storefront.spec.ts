// Journey (issue 19): the storefront claims only what is true. A merchant sets a 5% tax, its own
// shipping prices, shipping time and returns; the product page lists only the chain payments are
// credited on and shows no rating; the checkout offers the store's methods and prices, the order
// is priced with them; once paid, the buyer reviews the product from the thank-you page, and the
// review (marked "Verified purchase") and its rating appear; the merchant hides it. 'Verified
// Store' appears once the payout wallet (an injected provider backed by an anvil account) signs,
// and disappears when the payout address changes. Screenshots at phone and laptop sizes.
import { expect, test } from '@playwright/test';
import { REVIEW_MESSAGES } from '@store/shared';
import { readStackInfo } from '@store/stack/stack-info';
import { localAccount } from '@store/stack/usdc';
import { createProduct, createStore, signUp, unique } from './admin-helpers.ts';
import { expectNoBase } from './support/chain-names.ts';
import { payUsdc } from './support/pay.ts';
import { snapBoth } from './support/screenshots.ts';

test('a store with 5% tax and its own shipping checks out with those numbers; reviews are real', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(180_000);
  const stack = readStackInfo();
  await signUp(page.request);
  const store = await createStore(page.request, unique('Honest Goods'));
  const lamp = await createProduct(page.request, store.id, {
    title: 'Desk Lamp',
    priceUsdc: '40.00',
  });

  // The merchant's Settings: a wrong tax rate is refused beside its field, then saved.
  await page.goto(`/admin/stores/${store.id}`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByLabel('Tax rate (%)')).toHaveValue('8');
  await page.getByLabel('Tax rate (%)').fill('60');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(
    page.getByText('Tax rate must be a percentage from 0 to 50 with at most 2 decimals'),
  ).toBeVisible();
  await page.getByLabel('Tax rate (%)').fill('5');
  await page.getByLabel('Returns accepted within (days)').fill('14');
  await page.getByLabel('Shipping time').fill('1-3 days');
  await page.getByLabel('Offer Free').uncheck();
  await page.getByLabel('Standard price (USDC)').fill('4.50');
  await page.getByLabel('Standard delivery time').fill('3-5 days');
  await page.getByLabel('Express price (USDC)').fill('9');
  await page.getByLabel('Express delivery time').fill('Next day');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
  await expectNoBase(page);
  await snapBoth(page, 'honest-1-admin-settings', { noSidewaysScroll: true });

  // The product page: only the chain we credit, the store's own texts, no rating, no reviews.
  await page.goto(`/store/${store.slug}/product/${lamp.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Desk Lamp');
  await expect(page.getByTestId('accepted-method')).toHaveText(
    `USDC on Local chain ${stack.chainId}`,
  );
  await expect(page.getByText('Ethereum')).toHaveCount(0);
  await expect(page.getByText('Polygon')).toHaveCount(0);
  await expect(page.getByText('Verified Store')).toHaveCount(0);
  await expect(page.getByTestId('rating-summary')).toHaveCount(0);
  const trust = page.locator('.trust-cards');
  await expect(trust).toContainText('1-3 days');
  await expect(trust).toContainText('Within 14 days');
  await expect(trust).not.toContainText('30');
  await page.getByRole('tab', { name: 'Shipping' }).click();
  await expect(page.getByTestId('shipping-tab')).toContainText('Standard (3-5 days): 4.50 USDC');
  await expect(page.getByTestId('shipping-tab')).toContainText('Express (Next day): 9.00 USDC');
  await expect(page.getByTestId('shipping-tab')).not.toContainText('Free');
  await expect(page.getByTestId('shipping-tab')).toContainText('within 14 days of delivery');
  await page.getByRole('tab', { name: 'Reviews' }).click();
  await expect(page.getByText('No reviews yet.')).toBeVisible();
  await snapBoth(page, 'honest-2-product-no-reviews', { noSidewaysScroll: true });

  // The checkout: the store's methods and prices, its tax rate.
  await page.getByRole('button', { name: 'Buy Now' }).click();
  await expect(page).toHaveURL(`/store/${store.slug}/checkout`);
  await expect(page.getByRole('radio')).toHaveCount(2);
  await expect(page.getByRole('radio', { name: /Standard/ })).toBeChecked();
  await expect(page.getByText('Estimated tax (5%)').first()).toBeVisible();
  // 40.00 + 4.50 + 2.00 (5%)
  await expect(page.getByTestId('order-total').first()).toHaveText('46.50 USDC');
  await page.getByRole('radio', { name: /Express/ }).check();
  await expect(page.getByTestId('order-total').first()).toHaveText('51.00 USDC');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Phone').fill('555-0100');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Street address').fill('1 Lamp Lane');
  await page.getByLabel('City').fill('Portland');
  await page.getByLabel('State').selectOption('OR');
  await page.getByLabel('ZIP code').fill('97201');
  await snapBoth(page, 'honest-3-checkout', { noSidewaysScroll: true });
  await page.getByRole('button', { name: 'Proceed to Payment' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/store/${store.slug}/payment/[0-9a-f-]{36}$`));
  const orderId = page.url().split('/').pop() ?? '';
  const order = await (await context.request.get(`/api/orders/${orderId}`)).json();
  expect(order).toMatchObject({
    subtotalUsdc: '40.00',
    shippingUsdc: '9.00',
    taxUsdc: '2.00',
    totalUsdc: '51.00',
  });
  await expect(page.getByTestId('payment-amount')).toHaveText('51.00 USDC');

  // Paid: the thank-you page has the store's delivery estimate and the review link.
  const address = (await page.getByTestId('payment-address').textContent()) ?? '';
  await payUsdc(stack, address, '51.00', 5);
  await expect(page).toHaveURL(`/store/${store.slug}/thank-you/${orderId}`, { timeout: 45_000 });
  await expect(page.getByText('Estimated delivery: Next day')).toBeVisible();
  await expect(page.getByText('Estimated tax')).toBeVisible();
  await expectNoBase(page);
  await snapBoth(page, 'honest-4-thank-you', { noSidewaysScroll: true });
  await page.getByRole('link', { name: 'Review Desk Lamp' }).click();
  // The link carries the buyer's review token (kept by this browser when it placed the order).
  await expect(page).toHaveURL(
    new RegExp(`/store/${store.slug}/review/${orderId}/${lamp.id}#token=[0-9a-f]{64}$`),
  );
  await expect(page.getByRole('heading', { name: 'Review Desk Lamp' })).toBeVisible();
  await page.getByRole('button', { name: 'Post Review' }).click();
  await expect(page.getByText('Choose a rating from 1 to 5 stars')).toBeVisible();
  await expect(page.getByText('Write a few words about the product')).toBeVisible();
  await expect(page.getByLabel('Your name')).toHaveValue('Ada');
  await page.getByRole('radio', { name: '4 stars' }).check({ force: true });
  await page.getByLabel('Title (optional)').fill('Bright and steady');
  await page.getByLabel('Your review').fill('Lights the whole desk; the clamp holds well.');
  await snapBoth(page, 'honest-5-review-form', { noSidewaysScroll: true });
  await page.getByRole('button', { name: 'Post Review' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you for your review!' })).toBeVisible();

  // The receipt links to the review form too.
  type Mail = { to: string[]; text: string };
  const receipt = async () =>
    (
      (await (await context.request.get(`${stack.mailInboxUrl}/api/messages`)).json()) as Mail[]
    ).find((mail) => mail.text.includes(orderId.slice(-8)));
  await expect.poll(receipt, { timeout: 30_000 }).toBeTruthy();
  const receiptLink = new RegExp(
    `Desk Lamp: (${stack.webUrl}/store/${store.slug}/review/${orderId}/${lamp.id}#token=[0-9a-f]{64})`,
  ).exec((await receipt())?.text ?? '')?.[1];
  expect(receiptLink).toBeTruthy();
  // On another device the receipt's link is the proof: it reaches the form and is taken as this
  // order's (already reviewed here). The bare link, all a merchant knows, reviews nothing.
  const elsewhere = await browser.newPage();
  await elsewhere.goto(receiptLink ?? '');
  await elsewhere.getByRole('radio', { name: '5 stars' }).check({ force: true });
  await elsewhere.getByLabel('Your review').fill('Second try');
  await elsewhere.getByRole('button', { name: 'Post Review' }).click();
  await expect(elsewhere.getByRole('heading', { name: 'Already reviewed' })).toBeVisible();
  await elsewhere.goto(`${stack.webUrl}/store/${store.slug}/review/${orderId}/${lamp.id}`);
  await expect(elsewhere.getByRole('heading', { name: 'Review link not valid' })).toBeVisible();
  await expect(elsewhere.getByText(REVIEW_MESSAGES.linkInvalid)).toBeVisible();
  await snapBoth(elsewhere, 'honest-5b-review-link-not-valid');
  // That device's thank-you page has no token to link with: it points to the receipt instead.
  await elsewhere.goto(`${stack.webUrl}/store/${store.slug}/thank-you/${orderId}`);
  await expect(
    elsewhere.getByText('The links to review your items are in your receipt email.'),
  ).toBeVisible();
  await expect(elsewhere.getByRole('link', { name: 'Review Desk Lamp' })).toHaveCount(0);
  await elsewhere.close();

  // The review and its rating, marked as a verified purchase.
  await page.goto(`/store/${store.slug}/product/${lamp.id}`);
  await expect(page.getByTestId('rating-summary')).toContainText('4.0 (1 review)');
  await page.getByRole('tab', { name: 'Reviews' }).click();
  const reviews = page.getByTestId('reviews');
  await expect(reviews).toContainText('Verified purchase');
  await expect(reviews).toContainText('Bright and steady');
  await expect(reviews).toContainText('4.0 out of 5 (1 review)');
  await snapBoth(page, 'honest-6-product-reviewed', { noSidewaysScroll: true });

  // The merchant hides it (it cannot edit it): the product page has no rating again.
  await page.goto(`/admin/stores/${store.id}`);
  await page.getByRole('tab', { name: 'Reviews' }).click();
  await expect(page.getByTestId('admin-review')).toContainText('Bright and steady');
  await snapBoth(page, 'honest-7-admin-reviews', { noSidewaysScroll: true });
  await page.getByRole('button', { name: 'Hide' }).click();
  await expect(page.getByRole('button', { name: 'Unhide' })).toBeVisible();
  await page.goto(`/store/${store.slug}/product/${lamp.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Desk Lamp');
  await expect(page.getByTestId('rating-summary')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Reviews' }).click();
  await expect(page.getByText('No reviews yet.')).toBeVisible();
});

/** Installs a wallet extension (EIP-6963 and window.ethereum) for one unlocked anvil account. */
function installWallet(options: { account: string }) {
  const calls: string[] = [];
  const provider = {
    async request(args: { method: string; params?: unknown[] }) {
      calls.push(args.method);
      if (args.method === 'eth_requestAccounts' || args.method === 'eth_accounts')
        return [options.account];
      const answer = JSON.parse(
        await (window as unknown as { anvilRpc: (body: string) => Promise<string> }).anvilRpc(
          JSON.stringify({ jsonrpc: '2.0', id: 1, method: args.method, params: args.params ?? [] }),
        ),
      );
      if (answer.error) throw Object.assign(new Error(answer.error.message), answer.error);
      return answer.result;
    },
    on() {},
    removeListener() {},
  };
  const info = {
    uuid: '0d4a4c9e-9b1f-4b8e-8f1e-3c2a7d6e5f40',
    name: 'Test Wallet',
    icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
    rdns: 'test.wallet',
  };
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
    );
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
  Object.assign(window, { ethereum: provider, walletCalls: calls });
}

test("'Verified Store' appears once the payout wallet signs and goes when the address changes", async ({
  page,
}) => {
  const stack = readStackInfo();
  const payout = localAccount(7).address;
  await page.exposeFunction('anvilRpc', async (body: string) => {
    const response = await fetch(stack.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return response.text();
  });
  await page.addInitScript(installWallet, { account: payout });
  await signUp(page.request);
  const store = await createStore(page.request, unique('Signed Goods'));
  const put = (data: Record<string, unknown>) =>
    page.request.put(`/api/stores/${store.id}`, {
      data,
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
  expect((await put({ paymentAddress: payout })).status()).toBe(200);

  await page.goto(`/store/${store.slug}`);
  await expect(page.getByRole('list', { name: 'Store badges' })).toBeVisible();
  await expect(page.getByText('Verified Store')).toHaveCount(0);

  await page.goto(`/admin/stores/${store.id}`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByTestId('verification-status')).toContainText('Not verified');
  await page.getByRole('button', { name: 'Verify payout address' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Payout address verified' }),
  ).toBeVisible();
  await expect(page.getByTestId('verification-status')).toContainText(payout);
  expect(
    await page.evaluate(() => (window as unknown as { walletCalls: string[] }).walletCalls),
  ).toContain('personal_sign');
  await snapBoth(page, 'honest-8-admin-verified', { noSidewaysScroll: true });

  await page.goto(`/store/${store.slug}`);
  await expect(
    page.getByRole('list', { name: 'Store badges' }).getByText('Verified Store'),
  ).toBeVisible();
  await snapBoth(page, 'honest-9-storefront-verified', { noSidewaysScroll: true });

  // A new payout address withdraws the badge. Note: a browser that showed the store may show its
  // cached copy once (the service worker revalidates the catalogue behind it); the next load is fresh.
  expect((await put({ paymentAddress: localAccount(8).address })).status()).toBe(200);
  const fresh = await page.request.get(`/api/stores/${store.slug}`);
  expect((await fresh.json()).verified).toBe(false);
  await expect(async () => {
    await page.goto(`/store/${store.slug}`);
    await expect(page.getByRole('list', { name: 'Store badges' })).toBeVisible();
    await expect(page.getByText('Verified Store')).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.goto(`/admin/stores/${store.id}`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByTestId('verification-status')).toContainText('Not verified');
});
