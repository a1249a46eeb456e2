// "Send test webhook" on a real Postgres: a signed sample of any event reaches the store's URL
// before its first order, verifies with the store's secret (Standard Webhooks), and the merchant
// reads the receiver's answer; nothing is stored as a delivery; strangers, anonymous clients and a
// store without a URL are refused, and a store cannot be made to fire them without end.
import { describe, expect, test } from 'bun:test';
import { WEBHOOK_EVENT_TYPES, WebhookPayloadSchema } from '@store/shared';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import * as v from 'valibot';
import { webhookDeliveries } from '../src/db/schema.ts';
import { apiClient, newMerchant, storeForm } from './support/client.ts';
import { webhookReceiver } from './support/settlement.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi();

async function storeWithUrl(url: string) {
  const owner = await newMerchant(t.app, 'tester');
  const store = (await owner.api.post('/api/stores', storeForm())).body;
  expect((await owner.api.put(`/api/stores/${store.id}/webhook`, { url })).status).toBe(200);
  const secret = (await owner.api.get(`/api/stores/${store.id}/webhook/secret`)).body
    .secret as string;
  return { owner, store, secret };
}

describe('send test webhook', () => {
  test('every event type arrives signed with the store secret, valid to its schema, and the answer is shown', async () => {
    const receiver = webhookReceiver((n) =>
      n === 2 ? new Response('nope', { status: 500 }) : new Response(`got ${n}`),
    );
    const { owner, store, secret } = await storeWithUrl(receiver.url);
    const sent = await owner.api.post(`/api/stores/${store.id}/webhook/test`, {
      eventType: 'order.paid',
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      eventType: 'order.paid',
      url: receiver.url,
      delivered: true,
      statusCode: 200,
      responseBody: 'got 1',
      error: null,
    });
    expect(sent.body.messageId).toMatch(/^msg_test_[0-9a-f]{32}$/);
    const [request] = receiver.received;
    if (!request) throw new Error('nothing received');
    // The receiver verifies it exactly as it verifies a real webhook.
    const verified = new Webhook(secret).verify(request.body, {
      'webhook-id': request.headers['webhook-id'] ?? '',
      'webhook-timestamp': request.headers['webhook-timestamp'] ?? '',
      'webhook-signature': request.headers['webhook-signature'] ?? '',
    }) as Record<string, unknown>;
    expect(request.headers['webhook-id']).toBe(sent.body.messageId);
    expect(verified).toMatchObject({ type: 'order.paid', storeId: store.id, signed: true });
    expect(v.safeParse(WebhookPayloadSchema, verified).success).toBe(true);

    // A failing receiver's answer is reported, not hidden.
    const failed = await owner.api.post(`/api/stores/${store.id}/webhook/test`, {
      eventType: 'order.refunded',
    });
    expect(failed.body).toMatchObject({
      delivered: false,
      statusCode: 500,
      error: 'HTTP 500',
      responseBody: 'nope',
    });
    // Each event type has its sample.
    for (const eventType of WEBHOOK_EVENT_TYPES.slice(2, 6)) {
      const one = await owner.api.post(`/api/stores/${store.id}/webhook/test`, { eventType });
      expect(one.status).toBe(200);
      expect(v.safeParse(WebhookPayloadSchema, one.body.payload).success).toBe(true);
    }
    expect(receiver.ofType('order.forwarded')).toHaveLength(1);
    // Nothing was stored as a delivery: the log holds real events only.
    const stored = await t.testDb.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.storeId, store.id));
    expect(stored).toEqual([]);
    receiver.stop();
  });

  test('refused to strangers, anonymous clients, unknown events and stores without a URL', async () => {
    const receiver = webhookReceiver();
    const { store } = await storeWithUrl(receiver.url);
    const stranger = await newMerchant(t.app, 'stranger');
    const body = { eventType: 'order.paid' };
    expect((await stranger.api.post(`/api/stores/${store.id}/webhook/test`, body)).status).toBe(
      404,
    );
    expect((await apiClient(t.app).post(`/api/stores/${store.id}/webhook/test`, body)).status).toBe(
      401,
    );
    const other = await newMerchant(t.app, 'nourl');
    const bare = (await other.api.post('/api/stores', storeForm())).body;
    const noUrl = await other.api.post(`/api/stores/${bare.id}/webhook/test`, body);
    expect(noUrl.status).toBe(409);
    expect(noUrl.body.error.message).toBe('Save a webhook URL first: the test is sent there');
    const owner = await newMerchant(t.app, 'badevent');
    const mine = (await owner.api.post('/api/stores', storeForm())).body;
    await owner.api.put(`/api/stores/${mine.id}/webhook`, { url: receiver.url });
    const unknown = await owner.api.post(`/api/stores/${mine.id}/webhook/test`, {
      eventType: 'order.teleported',
    });
    expect(unknown.status).toBe(422);
    // A form-encoded body (what a cross-site form sends with the cookie) is refused, sends nothing.
    const form = await t.app.handle(
      new Request(`http://localhost/api/stores/${mine.id}/webhook/test`, {
        method: 'POST',
        headers: { cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'eventType=order.paid',
      }),
    );
    expect(form.status).toBe(415);
    expect(JSON.stringify(unknown.body)).toContain('eventType must be one of order.paid');
    expect(receiver.received).toHaveLength(0);
    receiver.stop();
  });

  test('at most 10 a minute per store', async () => {
    const receiver = webhookReceiver();
    const { owner, store } = await storeWithUrl(receiver.url);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await owner.api.post(`/api/stores/${store.id}/webhook/test`, { eventType: 'order.paid' }))
          .status,
      );
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(receiver.received).toHaveLength(10);
    receiver.stop();
  });
});
