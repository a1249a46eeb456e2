// The real API process stopped (SIGTERM, as a deploy or a scale-down does) while orders are being
// placed: the requests it already took finish with their normal answers before it closes its
// database, and it exits cleanly (each order checked in the database afterwards); a shopper's open
// payment status stream is closed at once instead of holding the stop until the process is killed.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { type ApiProcess, demoStoreOrder, startApiProcess } from '@store/stack/api-process';
import { orders } from '../src/db/schema.ts';
import { STACK_TIMEOUT_MS, startTestDatabase, type TestDatabase } from './support/database.ts';

let testDb: TestDatabase;
const started: ApiProcess<'pipe'>[] = [];

/** The real API entry point in local mode (the demo store) on the test database. */
async function startApi() {
  const api = await startApiProcess(testDb.url, { localMode: true, stderr: 'pipe' });
  started.push(api);
  return { api: api.proc, url: api.url };
}

const orderBody = async (url: string) => (await demoStoreOrder(url, 'shutdown@example.com')).body;

beforeAll(async () => {
  testDb = await startTestDatabase();
}, STACK_TIMEOUT_MS);

afterAll(async () => {
  for (const { proc } of started) {
    if (proc.exitCode === null) proc.kill('SIGKILL');
    await proc.exited;
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
