// Journey: a merchant creates an API key in the admin; the integrator's server (no browser, no
// cookie) creates a checkout session with it; the shopper opens the session URL, checks out with
// the session's fixed items and prices, pays from an anvil account, and lands on returnUrl. An
// expired session shows its own page; a revoked key is refused.
import { type APIRequestContext, expect, type Page, request, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { createStore, signUp, unique } from './admin-helpers.ts';
import { payUsdc } from './support/pay.ts';
import { snap } from './support/screenshots.ts';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Signs up in the page's cookie jar, makes a store and creates a key in its API keys tab. */
async function keyFromAdmin(page: Page, shots?: string) {
  await signUp(page.request);
  const store = await createStore(page.request, unique('Integrator Shop'));
  await page.goto(`/admin/stores/${store.id}`);
  await page.getByRole('tab', { name: 'API keys' }).click();
  await expect(page.getByTestId('store-id')).toHaveText(store.id);
  await page.getByLabel('Key name').fill('Production server');
  await page.getByRole('button', { name: 'Create API key' }).click();
  const secret = page.getByTestId('api-key-secret');
  await expect(secret).toHaveText(/^sk_test_[0-9A-Za-z]{40}$/);
  const key = (await secret.textContent()) ?? '';
  const row = page.getByRole('row', { name: 'API key Production server' });
  await expect(row).toContainText(key.slice(0, 12));
  await expect(row).not.toContainText(key);
  if (shots) {
    await snap(page, `${shots}-desktop`);
    await page.setViewportSize(PHONE);
    await snap(page, `${shots}-phone`);
    await page.setViewportSize(DESKTOP);
  }
  return { store, key };
}

/** The integrator's server: a request context that sends the key and no cookie or Origin. */
async function server(key: string): Promise<APIRequestContext> {
  return request.newContext({
    baseURL: readStackInfo().webUrl,
    extraHTTPHeaders: { authorization: `Bearer ${key}` },
  });
}

test('key -> session -> hosted checkout -> payment -> returnUrl', async ({ page }) => {
  const stack = readStackInfo();
  await page.setViewportSize(DESKTOP);
  const { store, key } = await keyFromAdmin(page, 'checkout-session-1-api-keys');

  const api = await server(key);
  const created = await api.post('/api/checkout-sessions', {
    data: {
      storeId: store.id,
      items: [
        { title: 'Linen shirt', priceUsdc: '20.00', quantity: 2 },
        { title: 'Wool socks', priceUsdc: '3.50', quantity: 1 },
      ],
      taxUsdc: '1.25',
      shippingOptions: [
        { id: 'std', label: 'Standard (5-7 days)', priceUsdc: '4.00' },
        { id: 'pickup', label: 'Pick up in store', priceUsdc: '0' },
      ],
      externalOrderId: 'SHOP-1001',
      returnUrl: `${stack.webUrl}/integrator/thanks?ref=7`,
      cancelUrl: `${stack.webUrl}/integrator/cart`,
      customer: { email: 'grace@example.com', name: 'Grace Hopper' },
    },
    headers: { 'idempotency-key': unique('session') },
  });
  expect(created.status(), await created.text()).toBe(201);
  const session = (await created.json()) as { id: string; url: string };
  expect(session.url).toBe(`${stack.webUrl}/pay/${session.id}`);

  // Fake timers from here: the 10 s poll cannot beat the manual check to the confirmation.
  await page.clock.install();
  await page.goto(session.url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(store.name);
  await expect(page.getByLabel('Email')).toHaveValue('grace@example.com');
  await expect(page.getByLabel('First name')).toHaveValue('Grace');
  await expect(page.getByLabel('Last name')).toHaveValue('Hopper');
  await expect(page.getByRole('radio', { name: /Standard/ })).toBeChecked();
  await expect(page.getByTestId('order-total')).toHaveText('48.75 USDC');
  await page.getByRole('radio', { name: /Pick up/ }).check();
  await expect(page.getByTestId('order-total')).toHaveText('44.75 USDC');
  await page.getByRole('radio', { name: /Standard/ }).check();
  await expect(page.getByRole('link', { name: /Cancel and return/ })).toHaveAttribute(
    'href',
    `${stack.webUrl}/integrator/cart`,
  );
  await page.getByLabel('Phone').fill('555-0101');
  await page.getByLabel('Street address').fill('1 Navy Yard');
  await page.getByLabel('City').fill('Arlington');
  await page.getByLabel('State').selectOption('VA');
  await page.getByLabel('ZIP code').fill('22202');
  await snap(page, 'checkout-session-2-hosted-desktop');
  await page.setViewportSize(PHONE);
  await snap(page, 'checkout-session-2-hosted-phone');
  await page.setViewportSize(DESKTOP);
  await page.getByRole('button', { name: 'Continue to Payment' }).click();

  await expect(page.getByTestId('payment-amount')).toHaveText('48.75 USDC');
  const read = await (await api.get(`/api/checkout-sessions/${session.id}`)).json();
  // Submitted, not paid: the session says so (an integrator fulfilling on 'completed' waits).
  expect(read).toMatchObject({ status: 'awaiting_payment', externalOrderId: 'SHOP-1001' });
  const orderId = read.order.id as string;
  await expect(page.getByTestId('order-number')).toHaveText(`#${orderId.slice(-8).toUpperCase()}`);
  const address = (await page.getByTestId('payment-address').textContent()) ?? '';
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  await snap(page, 'checkout-session-3-payment');

  await payUsdc(stack, address, '48.75', 5);
  // The page sees the payment itself (pushed status or its poll, on the page's fake clock), says
  // so, and 2 s later hands the shopper back to the integrator's returnUrl.
  const returned = `${stack.webUrl}/integrator/thanks?ref=7&orderId=${orderId}&status=success`;
  await expect
    .poll(
      async () => {
        if (page.url() !== returned) await page.clock.runFor(1000).catch(() => undefined);
        return page.url();
      },
      { timeout: 60_000 },
    )
    .toBe(returned);
  const after = await (await api.get(`/api/checkout-sessions/${session.id}`)).json();
  expect(after.order).toMatchObject({ id: orderId, status: 'paid', totalUsdc: '48.75' });
  await api.dispose();

  // The order is the store's: its admin page says it came from a checkout session.
  await page.goto(`/admin/orders/${orderId}`);
  await expect(page.getByTestId('order-source')).toHaveText('Checkout session (API)');
  await expect(page.getByText('SHOP-1001')).toBeVisible();
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await snap(page, `checkout-session-5-admin-order-${width}`);
  }
});

test('an expired session shows its page and the way back; a revoked key is refused', async ({
  page,
}) => {
  const stack = readStackInfo();
  await page.setViewportSize(DESKTOP);
  const { store, key } = await keyFromAdmin(page);
  const api = await server(key);
  const created = await api.post('/api/checkout-sessions', {
    data: {
      storeId: store.id,
      items: [{ title: 'Gift card', priceUsdc: '25', quantity: 1 }],
      cancelUrl: `${stack.webUrl}/integrator/cart`,
      expiresInSeconds: 300,
    },
  });
  expect(created.status()).toBe(201);
  const { url } = (await created.json()) as { url: string };
  // Ten minutes later (the page's clock): the session has expired.
  await page.clock.setFixedTime(Date.now() + 10 * 60_000);
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'This checkout has expired' })).toBeVisible();
  await expect(page.getByRole('link', { name: `Return to ${store.name}` })).toHaveAttribute(
    'href',
    `${stack.webUrl}/integrator/cart`,
  );
  await snap(page, 'checkout-session-4-expired');

  await page.goto(`/admin/stores/${store.id}`);
  await page.getByRole('tab', { name: 'API keys' }).click();
  await page
    .getByRole('row', { name: 'API key Production server' })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(page.getByRole('dialog')).toContainText('stops working at once');
  await page.getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByRole('row', { name: 'API key Production server' })).toContainText(
    'Revoked',
  );
  const refused = await api.get('/api/stores?mine=true');
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.message).toContain('revoked');
  await api.dispose();
});
