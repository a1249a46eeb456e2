// Store webhooks end to end: the merchant sets a URL pointing at a receiver of this test (local
// mode allows loopback), a paid order's webhook arrives signed with the shown secret, the log
// shows it delivered, Redeliver sends the same message again, and the secret rotates. Then the
// orders page shows forwarding and the warning of stock that ran out before payment.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import {
  createProduct,
  createStore,
  payOrder,
  placeOrder,
  signUp,
  unique,
} from './admin-helpers.ts';
import { snap, snapBoth } from './support/screenshots.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** An HTTP receiver on 127.0.0.1 (a free port) that answers 200 and keeps every request. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    ofType: (type: string) => received.filter((r) => JSON.parse(r.body).type === type),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** True when one of the `v1,` signatures is the HMAC of the message made with `secret`. */
function signedWith(secret: string, message: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const { 'webhook-id': id, 'webhook-timestamp': at } = message.headers;
  const expected = createHmac('sha256', key).update(`${id}.${at}.${message.body}`).digest('base64');
  const signatures = String(message.headers['webhook-signature']).split(' ');
  return signatures.includes(`v1,${expected}`);
}

/** The shown signing secret (after Show). */
async function shownSecret(page: Page): Promise<string> {
  return (await page.getByTestId('signing-secret').textContent()) ?? '';
}

test('webhooks: set the URL, see a delivery, redeliver it, rotate the secret', async ({ page }) => {
  const receiver = await startReceiver();
  try {
    await signUp(page.request);
    const store = await createStore(page.request, unique('Hooks Shop'));
    const lamp = { title: 'Lamp', priceUsdc: '4.00' };
    const product = { ...(await createProduct(page.request, store.id, lamp)), ...lamp };

    await page.goto(`/admin/stores/${store.id}`);
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Webhooks' });
    await expect(page.getByText('A signing secret is created when you save a URL.')).toBeVisible();
    const urlField = page.getByLabel('Webhook URL');
    await urlField.fill('example.com/hooks');
    await page.getByRole('button', { name: 'Save Webhook URL' }).click();
    await expect(panel.getByRole('alert')).toHaveText('Webhook URL must be an absolute URL');
    await expect(urlField).toHaveAttribute('aria-invalid', 'true');
    await urlField.fill(receiver.url);
    await page.getByRole('button', { name: 'Save Webhook URL' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Webhook URL saved' })).toBeVisible();

    const secretGroup = page.getByRole('group', { name: 'Signing secret' });
    await expect(page.getByTestId('signing-secret')).toHaveText(/^whsec_•+.{4}$/);
    await secretGroup.getByRole('button', { name: 'Show' }).click();
    await expect(page.getByTestId('signing-secret')).toHaveText(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    const secret = await shownSecret(page);
    await expect(page.getByRole('link', { name: 'Read the integration docs' })).toHaveAttribute(
      'href',
      '/universal-checkout-docs',
    );

    const order = await placeOrder(page.request, store.id, product);
    await payOrder(page.request, order, 6);
    await expect.poll(() => receiver.ofType('order.paid').length, { timeout: 30_000 }).toBe(1);
    const [first] = receiver.ofType('order.paid');
    expect(first && signedWith(secret, first)).toBe(true);
    expect(JSON.parse(first?.body ?? '{}')).toMatchObject({ orderId: order.id });

    const log = page.getByRole('region', { name: 'Deliveries' });
    const row = log.getByRole('row', { name: `order.paid #${order.id.slice(-8)}` });
    await expect(async () => {
      await log.getByRole('button', { name: 'Refresh' }).click();
      await expect(row.getByText('delivered', { exact: true })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(row).toContainText('HTTP 200');
    await row.getByRole('button', { name: '1 attempt' }).click();
    await expect(log.getByRole('list', { name: 'Attempts of order.paid' })).toContainText(
      'HTTP 200',
    );

    await row.getByRole('button', { name: `Redeliver order.paid #${order.id.slice(-8)}` }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Redelivery queued' })).toBeVisible();
    await snap(page, 'admin-webhooks');
    await expect.poll(() => receiver.ofType('order.paid').length, { timeout: 30_000 }).toBe(2);
    const [, again] = receiver.ofType('order.paid');
    expect(again?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(again?.body).toBe(first?.body);
    // The log re-reads itself while the redelivery is on its way.
    await expect(row.getByRole('button', { name: '2 attempts' })).toBeVisible({ timeout: 20_000 });
    await expect(row.getByText('delivered', { exact: true })).toBeVisible();

    await secretGroup.getByRole('button', { name: 'Rotate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rotate signing secret?' });
    await expect(confirm).toContainText('keeps working beside it for 24 hours');
    await confirm.getByRole('button', { name: 'Rotate secret' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Signing secret rotated' }),
    ).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(secretGroup).toContainText('The old secret keeps working for 24 hours');
    await expect(page.getByTestId('signing-secret')).toHaveText(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    expect(await shownSecret(page)).not.toBe(secret);
  } finally {
    await receiver.stop();
  }
});

test('a test webhook reaches the URL before the first order, signed, and its answer is shown', async ({
  page,
}) => {
  const receiver = await startReceiver();
  try {
    await signUp(page.request);
    const store = await createStore(page.request, unique('Test Hooks Shop'));
    await page.goto(`/admin/stores/${store.id}`);
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    const send = page.getByRole('button', { name: 'Send test webhook' });
    await expect(send).toBeDisabled();
    await page.getByLabel('Webhook URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Save Webhook URL' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Webhook URL saved' })).toBeVisible();
    await page.getByLabel('Event').selectOption('order.shipped');
    await send.click();
    const result = page.getByTestId('webhook-test-result');
    await expect(result).toContainText('Delivered: order.shipped');
    await expect(result).toContainText('HTTP 200');
    await expect(result).toContainText(/msg_test_[0-9a-f]{32}/);
    await snapBoth(page, 'admin-webhook-test', { noSidewaysScroll: true });
    expect(receiver.ofType('order.shipped')).toHaveLength(1);
    await page
      .getByRole('group', { name: 'Signing secret' })
      .getByRole('button', { name: 'Show' })
      .click();
    await expect(page.getByTestId('signing-secret')).toHaveText(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    const [sample] = receiver.ofType('order.shipped');
    expect(sample && signedWith(await shownSecret(page), sample)).toBe(true);
    expect(JSON.parse(sample?.body ?? '{}')).toMatchObject({ storeId: store.id, signed: true });
    // Nothing lands in the delivery log: it lists real order events only.
    await expect(page.getByRole('region', { name: 'Deliveries' })).not.toContainText(
      'order.shipped',
    );
  } finally {
    await receiver.stop();
  }
});

test('orders page: forwarding of a paid order and stock that ran out', async ({ page }) => {
  await signUp(page.request);
  const store = await createStore(page.request, unique('Stock Shop'));
  const mug = { title: 'Last Mug', priceUsdc: '3.00', inventory: 2 };
  const product = { ...(await createProduct(page.request, store.id, mug)), ...mug };
  // Each order holds its mug once its shopper asks to pay; the first is paid; then the last mug
  // goes elsewhere (the merchant sets the stock to 0), so the second, paid after, comes up short.
  const first = await placeOrder(page.request, store.id, product);
  const second = await placeOrder(page.request, store.id, product);
  const asked = await page.request.post(`/api/orders/${second.id}/assign-payment-wallet`, {
    data: { paymentChain: 'base' },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(asked.ok()).toBe(true);
  await payOrder(page.request, first, 7);
  const sold = await page.request.put(`/api/products/${product.id}`, { data: { inventory: 0 } });
  expect(sold.ok()).toBe(true);
  await payOrder(page.request, second, 7);

  await page.goto('/admin/orders');
  const orders = page.getByRole('region', { name: 'Orders' });
  const firstRow = orders.getByRole('row', { name: `Order #${first.id.slice(-8)}` });
  const secondRow = orders.getByRole('row', { name: `Order #${second.id.slice(-8)}` });
  await expect(secondRow.getByRole('note')).toHaveText(
    'Stock ran out: 1 × Last Mug could not be taken from stock — refund or restock',
  );
  await expect(firstRow.getByRole('note')).toHaveCount(0);
  // Forwarding runs on the worker; the page re-reads it until it settles.
  await expect(firstRow.getByText('forwarded', { exact: true })).toBeVisible({ timeout: 45_000 });
  await expect(firstRow.getByRole('button', { name: 'Retry forwarding' })).toHaveCount(0);
  await snap(page, 'admin-orders-forwarding');
});
