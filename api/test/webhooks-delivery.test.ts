// Webhook delivery and the merchant's webhook API on a real Postgres (no chain): the store's URL
// under the SSRF rules, its secret shown and rotated, retries of 5xx and silent receivers, final
// failures, redirects refused, every attempt logged, and redelivery by the owner only.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { App } from '../src/app.ts';
import { createDatabase } from '../src/db/client.ts';
import { webhookDeliveries } from '../src/db/schema.ts';
import { type DispatcherOptions, dispatchDue } from '../src/webhooks/dispatcher.ts';
import { newWebhookKeyPair } from '../src/webhooks/signing.ts';
import { newMerchant, storeForm } from './support/client.ts';
import { createTestApp } from './support/database.ts';
import { webhookReceiver } from './support/settlement.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi();
let strictApp: App;
// The dispatcher runs in the worker: it sends as the worker's database role.
let workerDb: ReturnType<typeof createDatabase>;

const options = (patch: Partial<DispatcherOptions> = {}): DispatcherOptions => ({
  db: workerDb.db,
  signingKey: newWebhookKeyPair().secretKey,
  allowPrivate: true,
  retryBaseMs: 50,
  timeoutMs: 300,
  ...patch,
});

/** A merchant's store whose webhooks go to `url`, and one pending delivery of it. */
async function storeWithDelivery(url: string) {
  const owner = await newMerchant(t.app, 'hooks');
  const store = (await owner.api.post('/api/stores', storeForm())).body;
  await owner.api.put(`/api/stores/${store.id}/webhook`, { url });
  const settings = (await owner.api.get(`/api/stores/${store.id}/webhook/secret`)).body;
  const payload = JSON.stringify({
    type: 'order.paid',
    orderId: crypto.randomUUID(),
    status: 'paid',
  });
  const [delivery] = await t.testDb.database.db
    .insert(webhookDeliveries)
    .values({
      orderId: crypto.randomUUID(),
      storeId: store.id,
      eventType: 'order.paid',
      url,
      payload,
      retryUntil: new Date(Date.now() + 60_000),
    })
    .returning();
  if (!delivery) throw new Error('no delivery');
  return { owner, store, secret: settings.secret as string, delivery, payload };
}

const deliveryRow = async (id: string) =>
  (
    await t.testDb.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id))
  )[0];

/** Runs dispatcher passes until the delivery leaves `pending` or `passes` ran. */
async function dispatchUntilSettled(id: string, opts: DispatcherOptions, passes = 10) {
  for (let i = 0; i < passes; i++) {
    await dispatchDue(opts);
    const row = await deliveryRow(id);
    if (row?.status !== 'pending') return row;
    await Bun.sleep(60 * 2 ** i);
  }
  return deliveryRow(id);
}

beforeAll(() => {
  strictApp = createTestApp(t.testDb, { LOCAL_MODE: 'false' });
  workerDb = createDatabase(t.testDb.roleUrls.worker, { max: 4 });
});
afterAll(async () => {
  await workerDb?.close();
});

describe("the store's webhook settings", () => {
  test('https to public addresses only outside local mode; checked at save time', async () => {
    const owner = await newMerchant(strictApp, 'strict');
    const store = (await owner.api.post('/api/stores', storeForm())).body;
    const put = (url: string | null) => owner.api.put(`/api/stores/${store.id}/webhook`, { url });
    for (const url of [
      'http://93.184.215.14/h',
      'https://127.0.0.1/h',
      'https://10.0.0.8/h',
      'https://localhost/h',
      'https://[fd00::1]/h',
    ]) {
      const response = await put(url);
      expect(response.status).toBe(422);
    }
    const saved = await put('https://93.184.215.14/hooks');
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ url: 'https://93.184.215.14/hooks', signatureScheme: 'v1' });
    expect(saved.body.secretHint).toMatch(/^.{4}$/);
    expect(JSON.stringify(saved.body)).not.toContain('whsec_');
    expect((await put(null)).body.url).toBeNull();
  });

  test('the owner reads the secret from its own route and rotates it; the old one signs beside it for a day', async () => {
    const { owner, store, secret } = await storeWithDelivery('http://127.0.0.1:9/none');
    expect(secret).toMatch(/^whsec_/);
    // The settings name it by its last 4 characters only.
    const settings = await owner.api.get(`/api/stores/${store.id}/webhook`);
    expect(settings.body).toMatchObject({ secretHint: secret.slice(-4), signatureScheme: 'v1' });
    expect(JSON.stringify(settings.body)).not.toContain('whsec_');
    const rotated = await owner.api.post(`/api/stores/${store.id}/webhook/rotate-secret`);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    expect(Date.parse(rotated.body.previousSecretValidUntil)).toBeGreaterThan(Date.now());
    expect((await owner.api.get(`/api/stores/${store.id}/webhook/secret`)).body.secret).toBe(
      rotated.body.secret,
    );
    const stranger = await newMerchant(t.app, 'other');
    expect((await stranger.api.get(`/api/stores/${store.id}/webhook`)).status).toBe(404);
    for (const client of [stranger.api, t.shopper]) {
      const read = await client.get(`/api/stores/${store.id}/webhook/secret`);
      expect(read.status).toBe(client === t.shopper ? 401 : 404);
      expect(JSON.stringify(read.body)).not.toContain('whsec_');
      const rotate = await client.post(`/api/stores/${store.id}/webhook/rotate-secret`);
      expect(rotate.status).toBe(client === t.shopper ? 401 : 404);
    }
    expect((await stranger.api.put(`/api/stores/${store.id}/webhook`, { url: null })).status).toBe(
      404,
    );
  });

  test('after a rotation, deliveries verify with either secret', async () => {
    const receiver = webhookReceiver();
    const { owner, store, secret, delivery, payload } = await storeWithDelivery(receiver.url);
    const { body } = await owner.api.post(`/api/stores/${store.id}/webhook/rotate-secret`);
    await dispatchUntilSettled(delivery.id, options());
    const [request] = receiver.received;
    expect(request?.body).toBe(payload);
    for (const key of [secret, body.secret])
      expect(new Webhook(key).verify(payload, request?.headers ?? {})).toBeTruthy();
    receiver.stop();
  });
});

describe('delivery', () => {
  test('500 then 200: delivered on the retry, both attempts logged', async () => {
    const receiver = webhookReceiver(
      (n) => new Response(n === 1 ? 'down' : 'ok', { status: n === 1 ? 500 : 200 }),
    );
    const { owner, store, secret, delivery } = await storeWithDelivery(receiver.url);
    const row = await dispatchUntilSettled(delivery.id, options());
    expect(row).toMatchObject({ status: 'delivered', attemptCount: 2, lastStatusCode: 200 });
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]?.headers['webhook-id']).toBe(
      receiver.received[1]?.headers['webhook-id'],
    );
    for (const r of receiver.received)
      expect(new Webhook(secret).verify(r.body, r.headers)).toBeTruthy();
    const log = (await owner.api.get(`/api/stores/${store.id}/webhook-deliveries`)).body;
    expect(log[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    expect(log[0].attempts[0]).toMatchObject({ error: 'HTTP 500', responseBody: 'down' });
    receiver.stop();
  });

  test('attempts that end together are written together, each with its own answer', async () => {
    // Note: the receiver holds the requests until all have come, then answers them at once:
    // even ones 200, odd ones 500.
    const count = 20;
    const held: (() => void)[] = [];
    const server = Bun.serve({
      port: 0,
      fetch: async (request) => {
        const body = JSON.parse(await request.text()) as { n: number };
        await new Promise<void>((resolve) => {
          held.push(resolve);
          if (held.length === count) for (const answer of held) answer();
        });
        return new Response(body.n % 2 === 0 ? 'ok' : 'down', {
          status: body.n % 2 === 0 ? 200 : 500,
        });
      },
    });
    const url = `http://127.0.0.1:${server.port}/hooks`;
    const { store } = await storeWithDelivery(url);
    await t.testDb.database.db
      .delete(webhookDeliveries)
      .where(eq(webhookDeliveries.storeId, store.id));
    const rows = await t.testDb.database.db
      .insert(webhookDeliveries)
      .values(
        Array.from({ length: count }, (_, n) => ({
          orderId: crypto.randomUUID(),
          storeId: store.id,
          eventType: 'order.paid',
          url,
          payload: JSON.stringify({ type: 'order.paid', n }),
          retryUntil: new Date(Date.now() + 60_000),
        })),
      )
      .returning();
    await dispatchDue(options({ perEndpoint: count }));
    server.stop(true);
    const ids = rows.map((r) => r.id);
    const attempts = await t.testDb.database.db.execute<{
      payload: string;
      status: string;
      attempt_count: number;
      status_code: number;
      writes: string;
    }>(sql`
      select d.payload, d.status, d.attempt_count, a.status_code, a.xmin::text as writes
      from webhook_deliveries d join webhook_attempts a on a.delivery_id = d.id
      where d.id in ${ids}`);
    expect(attempts).toHaveLength(count);
    for (const row of attempts) {
      const even = (JSON.parse(row.payload) as { n: number }).n % 2 === 0;
      expect(row).toMatchObject({
        status: even ? 'delivered' : 'pending',
        attempt_count: 1,
        status_code: even ? 200 : 500,
      });
    }
    // Note: the transactions that wrote the attempts (one a statement): the first attempt to end
    // is written at once, the others, ended meanwhile, together.
    expect(new Set(attempts.map((row) => row.writes)).size).toBeLessThanOrEqual(3);
  });

  test('a receiver that never answers times out, is retried, and every attempt is logged', async () => {
    const silent = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => new Promise<Response>(() => {}),
    });
    const { delivery } = await storeWithDelivery(`http://127.0.0.1:${silent.port}/hooks`);
    await dispatchDue(options());
    await Bun.sleep(80);
    await dispatchDue(options({ retryBaseMs: 20_000 }));
    const row = await deliveryRow(delivery.id);
    expect(row).toMatchObject({ status: 'pending', attemptCount: 2, lastStatusCode: null });
    expect(row?.lastError).toMatch(/no response within 300 ms/);
    expect(row?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    silent.stop(true);
  });

  test('4xx and redirects are final; a retryable failure past the 3-day window is given up', async () => {
    const gone = webhookReceiver(() => new Response('no', { status: 410 }));
    const a = await storeWithDelivery(gone.url);
    expect(await dispatchUntilSettled(a.delivery.id, options())).toMatchObject({
      status: 'failed',
      attemptCount: 1,
    });
    const moved = webhookReceiver(
      () => new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/' } }),
    );
    const b = await storeWithDelivery(moved.url);
    const redirected = await dispatchUntilSettled(b.delivery.id, options());
    expect(redirected).toMatchObject({ status: 'failed', lastStatusCode: 302 });
    expect(redirected?.lastError).toMatch(/not followed/);
    expect(moved.received).toHaveLength(1);
    const down = webhookReceiver(() => new Response('x', { status: 503 }));
    const c = await storeWithDelivery(down.url);
    await t.testDb.database.db
      .update(webhookDeliveries)
      .set({ retryUntil: new Date(Date.now() + 10) })
      .where(eq(webhookDeliveries.id, c.delivery.id));
    expect(await dispatchUntilSettled(c.delivery.id, options())).toMatchObject({
      status: 'failed',
      attemptCount: 1,
    });
    for (const r of [gone, moved, down]) r.stop();
  });

  test('private targets are refused at send time outside local mode (DNS rebinding)', async () => {
    const receiver = webhookReceiver();
    // Note: a name, not an IP literal: refused by the lookup at connect time, before any TLS.
    const { delivery } = await storeWithDelivery(
      receiver.url.replace('http://127.0.0.1', 'https://localhost'),
    );
    const row = await dispatchUntilSettled(delivery.id, options({ allowPrivate: false }));
    expect(row).toMatchObject({ status: 'failed', lastStatusCode: null });
    expect(row?.lastError).toMatch(/private/);
    expect(receiver.received).toHaveLength(0);
    receiver.stop();
  });

  test('the owner can redeliver; anyone else gets 404', async () => {
    const receiver = webhookReceiver();
    const { owner, delivery } = await storeWithDelivery(receiver.url);
    await dispatchUntilSettled(delivery.id, options());
    const stranger = await newMerchant(t.app, 'nosy');
    expect(
      (await stranger.api.post(`/api/webhook-deliveries/${delivery.id}/redeliver`)).status,
    ).toBe(404);
    expect((await owner.api.post('/api/webhook-deliveries/not-an-id/redeliver')).status).toBe(404);
    const again = await owner.api.post(`/api/webhook-deliveries/${delivery.id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ status: 'pending', attemptCount: 1 });
    const row = await dispatchUntilSettled(delivery.id, options());
    expect(row).toMatchObject({ status: 'delivered', attemptCount: 2 });
    expect(receiver.received).toHaveLength(2);
    receiver.stop();
  });
});

test('the public key of universal webhooks is published; 503 when not configured', async () => {
  const { publicKey } = newWebhookKeyPair();
  const configured = createTestApp(t.testDb, { WEBHOOK_PUBLIC_KEY: publicKey });
  const response = await configured.handle(
    new Request('http://localhost/.well-known/webhook-signing-key'),
  );
  expect(await response.json()).toMatchObject({ publicKey });
  expect(
    (await t.app.handle(new Request('http://localhost/.well-known/webhook-signing-key'))).status,
  ).toBe(503);
});
