// The real API process stopped (SIGTERM, as a deploy or a scale-down does) while orders are being
// placed: the requests it already took finish with their normal answers before it closes its
// database, and it exits cleanly (each order checked in the database afterwards); a shopper's open
// payment status stream is closed at once instead of holding the stop until the process is killed.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join, resolve } from 'node:path';
import { shippingFor, storeCheckoutTotals } from '@store/shared';
import type { Subprocess } from 'bun';
import { orders } from '../src/db/schema.ts';
import {
  STACK_TIMEOUT_MS,
  startTestDatabase,
  TEST_XPUB,
  type TestDatabase,
} from './support/database.ts';
import { freePort } from './support/ports.ts';

const root = resolve(import.meta.dir, '../..');

let testDb: TestDatabase;
const started: Subprocess[] = [];

/** Starts the real API entry point on the test database and waits until it answers. */
async function startApi() {
  const port = await freePort();
  const api = Bun.spawn([process.execPath, join(root, 'api/src/index.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: testDb.url,
      PORT: String(port),
      // Local mode seeds the demo store the orders are placed in.
      LOCAL_MODE: 'true',
      CHAIN_ID: '31337',
      RPC_URL: 'http://127.0.0.1:9',
      USDC_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      TREASURY_ADDRESS: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      RELAYER_ADDRESS: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      PAYMENT_XPUB: TEST_XPUB,
    },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  started.push(api);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const up = await fetch(`${url}/api/stores/demo-store`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { api, url };
    if (api.exitCode !== null || Date.now() > deadline)
      throw new Error(`the API did not start on port ${port}`);
    await Bun.sleep(100);
  }
}

/** A valid order of the demo store's first product, as JSON. */
async function orderBody(url: string) {
  const store = (await (await fetch(`${url}/api/stores/demo-store`)).json()) as { id: string };
  const [product] = (await (
    await fetch(`${url}/api/stores/${store.id}/products?published=true`)
  ).json()) as Array<{ id: string; title: string; priceUsdc: string }>;
  if (!product) throw new Error('the demo store has no products');
  const items = [
    { productId: product.id, title: product.title, priceUsdc: product.priceUsdc, quantity: 1 },
  ];
  const totals = storeCheckoutTotals(items, shippingFor('standard'));
  return JSON.stringify({
    storeId: store.id,
    customerEmail: 'shutdown@example.com',
    shippingAddress: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'shutdown@example.com',
      phone: '+1 555 0100',
      street: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      zipCode: '62701',
    },
    items,
    subtotalUsdc: totals.subtotalUsdc,
    shippingUsdc: totals.shippingUsdc,
    totalUsdc: totals.totalUsdc,
  });
}

beforeAll(async () => {
  testDb = await startTestDatabase();
}, STACK_TIMEOUT_MS);

afterAll(async () => {
  for (const api of started) {
    if (api.exitCode === null) api.kill('SIGKILL');
    await api.exited;
  }
  await testDb?.stop();
}, STACK_TIMEOUT_MS);

test('SIGTERM during a burst of orders: every order taken is answered and stored, then a clean exit', async () => {
  const { api, url } = await startApi();
  const body = await orderBody(url);
  // Note: 40 clients placing orders one after another; the signal comes once orders flow.
  const answered: Array<{ status: number; id?: string }> = [];
  const client = async () => {
    for (;;) {
      const response = await fetch(`${url}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        body,
      }).catch(() => null);
      // A connection the stopping server no longer takes: never answered, nothing stored.
      if (!response) return;
      const json = (await response.json().catch(() => ({}))) as { id?: string };
      answered.push({ status: response.status, id: json.id });
    }
  };
  const clients = Array.from({ length: 40 }, client);
  while (answered.length < 50) await Bun.sleep(5);
  api.kill('SIGTERM');
  await Promise.all(clients);
  const exitCode = await api.exited;
  const stderr = await new Response(api.stderr).text();

  expect(answered.filter((a) => a.status !== 201)).toEqual([]);
  expect(exitCode).toBe(0);
  expect(stderr).not.toContain('CONNECTION_ENDED');
  // Every order answered 201 is in the database, and no other.
  const stored = await testDb.database.db.select({ id: orders.id }).from(orders);
  expect(new Set(stored.map((o) => o.id))).toEqual(new Set(answered.map((a) => a.id as string)));
}, 60_000);

test('an open payment status stream does not hold the stop: it closes and the API exits at once', async () => {
  const { api, url } = await startApi();
  const order = (await (
    await fetch(`${url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: await orderBody(url),
    })
  ).json()) as { id: string };
  const stream = await fetch(`${url}/api/orders/${order.id}/payment-events`);
  expect(stream.headers.get('content-type')).toContain('text/event-stream');
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  const stopping = Date.now();
  api.kill('SIGTERM');
  // The shopper's stream ends (the browser reconnects to another replica) and the process exits.
  for (;;) {
    const { done } = await reader.read().catch(() => ({ done: true }));
    if (done) break;
  }
  expect(await api.exited).toBe(0);
  expect(Date.now() - stopping).toBeLessThan(3000);
}, 60_000);
