// Fulfilment on the real stack: a merchant opens a paid order cold from its URL, reads the
// address, marks it shipped with carrier and tracking; the shopper's order page shows the
// tracking, the store's webhook receiver gets order.shipped (signed) with it, the shipped mail
// reaches the local inbox, and the order page lists the incoming transfer, the webhook and the
// timeline. The orders
// list finds the order from a search deep link opened cold. At 390 px no admin page (dashboard,
// orders list, order page, store page) scrolls sideways.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import {
  createProduct,
  createStore,
  payOrder,
  placeOrder,
  signUp,
  unique,
} from './admin-helpers.ts';
import { snap } from './support/screenshots.ts';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };
const TRACKING = '1Z999AA10123456784';
const TRACKING_URL = `https://www.ups.com/track?tracknum=${TRACKING}`;

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
  return String(message.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

/** At the phone size the page does not scroll sideways; screenshots at both sizes. */
async function checkAndSnap(page: Page, name: string) {
  await page.setViewportSize(PHONE);
  await snap(page, `${name}-phone`);
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .slice(0, 8)
      .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
  );
  await expect
    .poll(() => page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0), {
      message: `${name}: no sideways scroll at 390 px (${wide.join(', ')})`,
    })
    .toBeLessThanOrEqual(PHONE.width);
  await page.setViewportSize(LAPTOP);
  await snap(page, `${name}-laptop`);
}

test('a merchant ships an order: the shopper page, the webhook and the mail show the tracking', async ({
  page,
  context,
}) => {
  const stack = readStackInfo();
  const receiver = await startReceiver();
  try {
    await signUp(page.request);
    const store = await createStore(page.request, unique('Ship Shop'));
    const hook = await page.request.put(`/api/stores/${store.id}/webhook`, {
      data: { url: receiver.url },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(hook.status(), await hook.text()).toBe(200);
    // Note: the secret itself is read apart (a session, and a code once two-step is on).
    const { secret } = (await (
      await page.request.get(`/api/stores/${store.id}/webhook/secret`)
    ).json()) as { secret: string };
    expect(secret).toMatch(/^whsec_/);
    const kettle = await createProduct(page.request, store.id, {
      title: 'Kettle',
      priceUsdc: '30.00',
    });
    const order = await placeOrder(page.request, store.id, {
      ...kettle,
      title: 'Kettle',
      priceUsdc: '30.00',
    });
    await payOrder(page.request, order, 6);
    const number = `#${order.id.slice(-8)}`;

    // Cold from its URL: a new tab, nothing of the admin visited before.
    const tab = await context.newPage();
    await tab.goto(`/admin/orders/${order.id}`);
    await expect(tab.getByRole('heading', { level: 1 })).toHaveText(`Order ${number}`);
    const address = tab.locator('address.order-address');
    await expect(address).toContainText('Ada Lovelace');
    await expect(address).toContainText('12 Hudson Street');
    await expect(address).toContainText('New York, NY 10001');
    // Each incoming transfer with its transaction (linked to the explorer when the chain has one).
    const incoming = tab.getByRole('list', { name: 'Incoming transfers' });
    await expect(incoming.getByRole('listitem')).toHaveCount(1);
    await expect(incoming).toContainText(`${order.totalUsdc}0000 USDC`);
    await expect(incoming.locator('.mono')).toHaveText(/^0x[0-9a-f]{64}$/);

    const shipment = tab.getByRole('region', { name: 'Shipment' });
    await expect(tab.getByRole('region', { name: 'Timeline' })).toContainText('Payment confirmed');
    await checkAndSnap(tab, 'fulfilment-0-order-paid');
    await shipment.getByRole('button', { name: 'Mark as shipped' }).click();
    await expect(shipment.getByText('Carrier is required')).toBeVisible();
    await shipment.getByLabel('Carrier').fill('UPS');
    await shipment.getByLabel('Tracking number').fill(TRACKING);
    await shipment.getByLabel('Tracking URL (optional)').fill('http://insecure.example/track');
    await shipment.getByRole('button', { name: 'Mark as shipped' }).click();
    await expect(shipment.getByText('Tracking URL must be an https:// address')).toBeVisible();
    await shipment.getByLabel('Tracking URL (optional)').fill(TRACKING_URL);
    await shipment.getByRole('button', { name: 'Mark as shipped' }).click();
    await expect(tab.getByRole('status').filter({ hasText: 'Order marked shipped' })).toBeVisible();
    await expect(shipment.getByTestId('order-shipment')).toContainText(TRACKING);
    await expect(shipment.getByRole('link', { name: 'Track parcel' })).toHaveAttribute(
      'href',
      TRACKING_URL,
    );
    await expect(tab.getByText('shipped', { exact: true }).first()).toBeVisible();

    // The store's webhook: order.shipped, signed with the store's secret, with the tracking.
    await expect.poll(() => receiver.ofType('order.shipped').length, { timeout: 30_000 }).toBe(1);
    const [shipped] = receiver.ofType('order.shipped');
    if (!shipped) throw new Error('no order.shipped');
    expect(signedWith(secret, shipped)).toBe(true);
    expect(JSON.parse(shipped.body)).toMatchObject({
      type: 'order.shipped',
      orderId: order.id,
      status: 'shipped',
      shipment: { carrier: 'UPS', trackingNumber: TRACKING, trackingUrl: TRACKING_URL },
    });

    // The webhook and the timeline on the order page.
    await expect(async () => {
      await tab.reload();
      const webhooks = tab.getByRole('region', { name: 'Webhooks' });
      await expect(webhooks.getByRole('listitem', { name: 'Webhook order.shipped' })).toContainText(
        'delivered',
        { timeout: 2_000 },
      );
    }).toPass({ timeout: 30_000 });
    const timeline = tab.getByRole('region', { name: 'Timeline' });
    for (const step of ['Order placed', 'Payment confirmed', 'Shipped'])
      await expect(timeline.getByText(step, { exact: true })).toBeVisible();
    await checkAndSnap(tab, 'fulfilment-1-order-shipped');

    // The shopper's order page shows the carrier, the tracking number and the link.
    const shopper = await context.newPage();
    await shopper.goto(`/store/${store.slug}/thank-you/${order.id}`);
    const card = shopper.getByTestId('shipment-card');
    await expect(card).toContainText('Your order has shipped');
    await expect(card).toContainText('UPS');
    await expect(card).toContainText(TRACKING);
    await expect(card.getByRole('link', { name: 'Track your parcel' })).toHaveAttribute(
      'href',
      TRACKING_URL,
    );
    await checkAndSnap(shopper, 'fulfilment-2-shopper-page');

    // The shipped mail reaches the local inbox.
    type Mail = { to: string[]; subject: string; text: string };
    const shippedMail = async () =>
      (
        (await (await context.request.get(`${stack.mailInboxUrl}/api/messages`)).json()) as Mail[]
      ).find(
        (mail) =>
          mail.to.includes('ada@example.com') &&
          mail.subject.includes(number) &&
          mail.subject.includes('shipped'),
      );
    await expect
      .poll(async () => (await shippedMail())?.subject, { timeout: 30_000 })
      .toBe(`Your order ${number} from ${store.name} has shipped`);
    const mail = (await shippedMail()) as Mail;
    expect(mail.text).toContain(`Tracking number: ${TRACKING}`);
    expect(mail.text).toContain(`Track your parcel: ${TRACKING_URL}`);
    expect(mail.text).toContain(`/store/${store.slug}/thank-you/${order.id}`);

    // The orders list: a search deep link opened cold finds the order.
    const list = await context.newPage();
    await list.goto(`/admin/orders?q=${encodeURIComponent(number)}&status=shipped`);
    await expect(list.getByLabel('Search')).toHaveValue(number);
    await expect(list.getByLabel('Status')).toHaveValue('shipped');
    const rows = list.getByRole('region', { name: 'Orders' }).getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText(number);
    await checkAndSnap(list, 'fulfilment-3-orders-search');

    // No admin page scrolls sideways on a phone.
    await list.goto('/admin');
    await expect(list.getByRole('heading', { name: 'Recent Orders' })).toBeVisible();
    await checkAndSnap(list, 'fulfilment-4-dashboard');
    await list.goto(`/admin/stores/${store.id}`);
    await expect(list.getByRole('row', { name: 'Kettle' })).toBeVisible();
    await checkAndSnap(list, 'fulfilment-5-store-page');
    await list.setViewportSize(PHONE);
    // Note: below the store's charts now; reached by scrolling down, never sideways (checked above).
    const edit = list.getByRole('button', { name: 'Edit Kettle' });
    await edit.scrollIntoViewIfNeeded();
    await expect(edit).toBeInViewport();
    expect(await list.evaluate(() => window.scrollX)).toBe(0);
  } finally {
    await receiver.stop();
  }
});
