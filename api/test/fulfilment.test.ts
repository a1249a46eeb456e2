// Fulfilment on a real Postgres (no chain): a merchant marks a paid order shipped with carrier and
// tracking (session or API key, Idempotency-Key honoured); the order.shipped webhook is delivered
// signed with the tracking, the shopper's mail is queued and re-queued for new tracking; the public
// order shows the shipment; another merchant, an anonymous client and an unpaid order are refused.
import { beforeAll, describe, expect, test } from 'bun:test';
import {
  shippingFor,
  storeCheckoutTotals,
  WEBHOOK_PAYLOAD_SCHEMAS,
  WebhookPayloadSchema,
} from '@store/shared';
import { customer } from '@store/stack/api-process';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import * as v from 'valibot';
import { emailOutbox, orders, paymentEvents, paymentWallets } from '../src/db/schema.ts';
import { MAIL_KINDS } from '../src/mail/kinds.ts';
import { dispatchDue } from '../src/webhooks/dispatcher.ts';
import { newWebhookKeyPair } from '../src/webhooks/signing.ts';
import { apiClient, storeForm } from './support/client.ts';
import { webhookReceiver } from './support/settlement.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });
const receiver = webhookReceiver();
let storeId: string;
let storeSlug: string;
let secret: string;
let productId: string;
let derivation = 0;

const db = () => t.testDb.database.db;

beforeAll(async () => {
  const store = (await t.owner.api.post('/api/stores', storeForm())).body;
  storeId = store.id;
  storeSlug = store.slug;
  const hook = await t.owner.api.put(`/api/stores/${storeId}/webhook`, { url: receiver.url });
  expect(hook.status).toBe(200);
  secret = (await t.owner.api.get(`/api/stores/${storeId}/webhook/secret`)).body.secret;
  productId = (
    await t.owner.api.post('/api/products', { storeId, title: 'Kettle', priceUsdc: '40.00' })
  ).body.id;
});

/** A store order placed by a shopper; `paid` gives it the wallet and events of a paid payment. */
async function placeOrder(paid: boolean) {
  const items = [{ productId, title: 'Kettle', priceUsdc: '40.00', quantity: 1 }];
  const totals = storeCheckoutTotals(items, shippingFor('free'));
  const placed = await t.shopper.post('/api/orders', {
    storeId,
    ...customer,
    items,
    subtotalUsdc: totals.subtotalUsdc,
    shippingUsdc: totals.shippingUsdc,
    totalUsdc: totals.totalUsdc,
  });
  expect(placed.status).toBe(201);
  const id = placed.body.id as string;
  if (!paid) return id;
  derivation += 1;
  const address = `0x${(0xabc000 + derivation).toString(16).padStart(40, '0')}`;
  const [wallet] = await db()
    .insert(paymentWallets)
    .values({
      orderId: id,
      walletAddress: address,
      derivationPath: `m/44'/60'/0'/0/${900_000 + derivation}`,
      derivationIndex: 900_000 + derivation,
      status: 'received',
      expectedAmountUsdc: totals.totalUsdc,
      receivedAmountUsdc: totals.totalUsdc,
      detectedAmountUsdc: totals.totalUsdc,
      storePaymentAddress: storeForm().paymentAddress,
      paymentChain: 'base',
      paymentReceivedAt: new Date(),
    })
    .returning();
  if (!wallet) throw new Error('no wallet');
  await db()
    .insert(paymentEvents)
    .values({
      walletId: wallet.id,
      orderId: id,
      fromStatus: 'waiting',
      toStatus: 'received',
      receivedAmountUsdc: totals.totalUsdc,
      details: { paymentTxHash: `0x${'ab'.repeat(32)}` },
    });
  await db()
    .update(orders)
    .set({ status: 'paid', paymentTxHash: `0x${'ab'.repeat(32)}` })
    .where(eq(orders.id, id));
  return id;
}

const ship = { carrier: 'UPS', trackingNumber: '1Z999AA10123456784' };
const dispatch = () =>
  dispatchDue({
    db: db(),
    signingKey: newWebhookKeyPair().secretKey,
    allowPrivate: true,
    retryBaseMs: 50,
    timeoutMs: 2_000,
  });
const shippedHooks = (orderId: string) =>
  receiver
    .ofType('order.shipped')
    .filter((request) => JSON.parse(request.body).orderId === orderId);
const mailOf = async (orderId: string) =>
  (
    await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, 'shipped')))
  )[0];

describe('POST /api/orders/{id}/shipment', () => {
  test('refused: anonymous (401), another merchant (404), an unpaid order (409), bad bodies (422)', async () => {
    const unpaid = await placeOrder(false);
    const paid = await placeOrder(true);
    expect((await t.shopper.post(`/api/orders/${paid}/shipment`, ship)).status).toBe(401);
    const other = await t.other.api.post(`/api/orders/${paid}/shipment`, ship);
    expect(other.status).toBe(404);
    expect(other.body.error.message).toBe('Order not found');
    const notPaid = await t.owner.api.post(`/api/orders/${unpaid}/shipment`, ship);
    expect(notPaid.status).toBe(409);
    expect(notPaid.body.error.message).toBe('Only a paid order can be marked shipped');
    const noCarrier = await t.owner.api.post(`/api/orders/${paid}/shipment`, {
      trackingNumber: 'X1',
    });
    expect(noCarrier.status).toBe(422);
    expect(JSON.stringify(noCarrier.body)).toContain('Carrier is required');
    const http = await t.owner.api.post(`/api/orders/${paid}/shipment`, {
      ...ship,
      trackingUrl: 'http://track.example.com/1Z',
    });
    expect(http.status).toBe(422);
    expect(JSON.stringify(http.body)).toContain('Tracking URL must be an https:// address');
    const long = await t.owner.api.post(`/api/orders/${paid}/shipment`, {
      ...ship,
      trackingNumber: 'A'.repeat(101),
    });
    expect(long.status).toBe(422);
    expect(long.body.error.message).toBe('Tracking number must be at most 100 characters');
    // nothing of it was recorded
    const [row] = await db().select().from(orders).where(eq(orders.id, paid));
    expect(row?.shippedAt).toBeNull();
    expect(row?.status).toBe('paid');
    expect(await mailOf(paid)).toBeUndefined();
  });

  test('ships a paid order: status, shipment, webhook delivered signed, mail queued, public page', async () => {
    const orderId = await placeOrder(true);
    const trackingUrl = 'https://www.ups.com/track?tracknum=1Z999AA10123456784';
    const marked = await t.owner.api.post(
      `/api/orders/${orderId}/shipment`,
      { ...ship, trackingUrl },
      { headers: { 'idempotency-key': `ship-${orderId}` } },
    );
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({
      outcome: 'shipped',
      message: 'Order marked shipped',
      order: { id: orderId, status: 'shipped', shipment: { ...ship, trackingUrl } },
    });
    // the same request replayed: the first answer, nothing sent twice
    const replay = await t.owner.api.post(
      `/api/orders/${orderId}/shipment`,
      { ...ship, trackingUrl },
      { headers: { 'idempotency-key': `ship-${orderId}` } },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(marked.body);

    const order = await t.shopper.get(`/api/orders/${orderId}`);
    expect(order.body.shipment).toMatchObject({ ...ship, trackingUrl });
    expect(order.body.status).toBe('shipped');

    while (await dispatch());
    const hooks = shippedHooks(orderId);
    expect(hooks).toHaveLength(1);
    const hook = hooks[0];
    if (!hook) throw new Error('no webhook');
    expect(new Webhook(secret).verify(hook.body, hook.headers)).toBeTruthy();
    const payload = v.parse(WEBHOOK_PAYLOAD_SCHEMAS['order.shipped'], JSON.parse(hook.body));
    expect(payload).toMatchObject({
      orderId,
      storeId,
      status: 'shipped',
      shipment: { ...ship, trackingUrl, updated: false },
    });

    const mail = await mailOf(orderId);
    expect(mail).toMatchObject({ status: 'pending', toAddress: customer.customerEmail });
    expect(mail?.payload?.orderPageUrl).toBe(
      `http://localhost/store/${storeSlug}/thank-you/${orderId}`,
    );
    const template = MAIL_KINDS.shipped;
    if (!template || !mail) throw new Error('no shipped template');
    const rendered = await template(db(), { ...mail, payload: mail.payload ?? null }, 31337);
    expect(rendered?.subject).toContain('has shipped');
    expect(rendered?.text).toContain('Tracking number: 1Z999AA10123456784');
    expect(rendered?.html).toContain(trackingUrl.replace('&', '&amp;'));
  });

  test('marking again: the same tracking changes nothing; new tracking updates, re-sends, re-mails', async () => {
    const orderId = await placeOrder(true);
    await t.owner.api.post(`/api/orders/${orderId}/shipment`, ship);
    // the first mail went out
    await db()
      .update(emailOutbox)
      .set({ status: 'sent', sentAt: new Date(), payload: null })
      .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, 'shipped')));
    const same = await t.owner.api.post(`/api/orders/${orderId}/shipment`, {
      carrier: ' UPS ',
      trackingNumber: ship.trackingNumber,
    });
    expect(same.body).toMatchObject({ outcome: 'unchanged' });
    expect((await mailOf(orderId))?.status).toBe('sent');

    const updated = await t.owner.api.post(`/api/orders/${orderId}/shipment`, {
      carrier: 'DHL',
      trackingNumber: 'JD014600006281230704',
      trackingUrl: '',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      outcome: 'updated',
      message: 'Tracking updated',
      order: {
        status: 'shipped',
        shipment: { carrier: 'DHL', trackingNumber: 'JD014600006281230704', trackingUrl: null },
      },
    });
    const mail = await mailOf(orderId);
    expect(mail).toMatchObject({ status: 'pending', sentAt: null });
    expect(mail?.payload?.updated).toBe(true);
    while (await dispatch());
    // Note: deliveries may arrive in any order; each carries its own tracking.
    const payloads = shippedHooks(orderId).map((r) => JSON.parse(r.body));
    const sent = payloads.map((p) => [p.shipment.carrier, p.shipment.updated]);
    expect(sent.sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      ['UPS', false],
      ['DHL', true],
    ]);
  });

  test('with an API key too; the activity lists webhooks and the timeline (owner only)', async () => {
    const orderId = await placeOrder(true);
    const key = (await t.owner.api.post('/api/api-keys', { name: 'Fulfilment' })).body.key;
    const server = apiClient(t.app);
    const byKey = await server.post(`/api/orders/${orderId}/shipment`, ship, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(byKey.status).toBe(200);
    expect(byKey.body.outcome).toBe('shipped');
    while (await dispatch());

    expect((await t.shopper.get(`/api/orders/${orderId}/activity`)).status).toBe(401);
    expect((await t.other.api.get(`/api/orders/${orderId}/activity`)).status).toBe(404);
    const activity = await t.owner.api.get(`/api/orders/${orderId}/activity`);
    expect(activity.status).toBe(200);
    // Note: no indexer in this test: no transfer is known (the e2e journey shows them).
    expect(activity.body.deposits).toEqual([]);
    expect(activity.body.webhooks).toEqual([
      expect.objectContaining({
        eventType: 'order.shipped',
        status: 'delivered',
        attempts: 1,
        lastStatusCode: 200,
      }),
    ]);
    const kinds = activity.body.timeline.map((step: { kind: string }) => step.kind);
    expect(kinds[0]).toBe('created');
    expect(kinds).toEqual(expect.arrayContaining(['payment', 'shipped', 'webhook', 'mail']));
    const payment = activity.body.timeline.find((s: { kind: string }) => s.kind === 'payment');
    expect(payment).toMatchObject({ title: 'Payment confirmed', txHash: `0x${'ab'.repeat(32)}` });
  });
});

test('every order.shipped payload received parses against the shared schema', () => {
  expect(receiver.ofType('order.shipped').length).toBeGreaterThan(2);
  for (const request of receiver.received)
    expect(v.safeParse(WebhookPayloadSchema, JSON.parse(request.body)).issues).toBeUndefined();
  receiver.stop();
});
