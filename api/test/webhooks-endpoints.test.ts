// Webhooks to many receivers on a real Postgres, sent by the dispatcher as the worker's database
// role: a receiver that never answers holds at most a few sends, so the others' webhooks go out at
// once (no head-of-line blocking); a URL that keeps failing is paused (its deliveries wait, nothing
// is dropped), its owner is told once, and it resumes by itself when it answers again.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { and, eq, inArray } from 'drizzle-orm';
import { createDatabase } from '../src/db/client.ts';
import { emailOutbox, webhookDeliveries, webhookEndpoints } from '../src/db/schema.ts';
import { renderNotice } from '../src/mail/notices.ts';
import {
  startWebhookDispatcher,
  WEBHOOK_PAUSE_AFTER_FAILURES,
} from '../src/webhooks/dispatcher.ts';
import { newWebhookKeyPair } from '../src/webhooks/signing.ts';
import { apiClient, sessionCookieOf, storeForm } from './support/client.ts';
import { waitUntil } from './support/settlement.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi();
let workerDb: ReturnType<typeof createDatabase>;

beforeAll(() => {
  workerDb = createDatabase(t.testDb.roleUrls.worker, { max: 4 });
});
afterAll(async () => {
  await workerDb?.close();
});

/** A merchant with a verified email and a store whose webhooks are signed with its secret. */
async function ownerWithStore(url = 'http://127.0.0.1:9/set') {
  const email = `hooks-${crypto.randomUUID().slice(0, 8)}@merchant.test`;
  const response = await t.shopper.post('/api/auth/sign-up', {
    username: `hooks-${crypto.randomUUID().slice(0, 8)}`,
    password: 'correct horse battery',
    email,
  });
  const [mail] = await t.testDb.database.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.toAddress, email));
  const token = new URL(String(mail?.payload?.url)).searchParams.get('token');
  expect((await t.shopper.post('/api/auth/verify-email', { token })).status).toBe(200);
  const api = apiClient(t.app, sessionCookieOf(response));
  const store = (await api.post('/api/stores', storeForm())).body;
  await api.put(`/api/stores/${store.id}/webhook`, { url });
  return { api, email, userId: response.body.user.id as string, storeId: store.id as string };
}

/** A receiver: `answer` decides each response (a promise that never settles: no answer). */
function receiver(answer: () => Promise<Response> | Response) {
  const times: number[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 0,
    fetch: async (request) => {
      await request.text();
      times.push(performance.now());
      return answer();
    },
  });
  return { url: `http://127.0.0.1:${server.port}/hooks`, times, stop: () => server.stop(true) };
}

/** Inserts `count` due deliveries of the store to `url`, each created `createdAt`. */
async function enqueue(storeId: string, url: string, count: number, createdAt: Date) {
  const rows = await t.testDb.database.db
    .insert(webhookDeliveries)
    .values(
      Array.from({ length: count }, (_, i) => ({
        orderId: crypto.randomUUID(),
        storeId,
        eventType: 'order.paid',
        url,
        payload: JSON.stringify({ type: 'order.paid', n: i }),
        nextAttemptAt: createdAt,
        retryUntil: new Date(createdAt.getTime() + 3_600_000),
        createdAt,
      })),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.map((r) => r.id);
}

const deliveriesOf = (ids: string[]) =>
  t.testDb.database.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));

describe('webhooks to many receivers', () => {
  test("a silent receiver does not hold up the others' webhooks, and is paused and its owner told", async () => {
    const owner = await ownerWithStore();
    const silent = [
      receiver(() => new Promise<Response>(() => {})),
      receiver(() => new Promise<Response>(() => {})),
    ];
    const healthy = [1, 2, 3].map(() => receiver(() => new Response('ok')));
    const start = new Date();
    // The silent receivers' backlog is older, so it comes first in the queue.
    const stuck = (
      await Promise.all(
        silent.map((r) => enqueue(owner.storeId, r.url, 60, new Date(start.getTime() - 1000))),
      )
    ).flat();
    const created = new Date();
    const fast = (
      await Promise.all(healthy.map((r) => enqueue(owner.storeId, r.url, 20, created)))
    ).flat();
    const loop = startWebhookDispatcher({
      db: workerDb.db,
      signingKey: newWebhookKeyPair().secretKey,
      allowPrivate: true,
      retryBaseMs: 600_000,
      timeoutMs: 3000,
      concurrency: 16,
      pauseBaseMs: 600_000,
      intervalMs: 50,
      log: () => {},
    });
    try {
      const rows = await waitUntil(
        async () => {
          const found = await deliveriesOf(fast);
          return found.every((r) => r.status === 'delivered') && found;
        },
        'the healthy receivers got every webhook',
        30_000,
      );
      const waits = rows
        .map((r) => (r.deliveredAt?.getTime() ?? Number.POSITIVE_INFINITY) - created.getTime())
        .sort((a, b) => a - b);
      const p95 = waits[Math.ceil(waits.length * 0.95) - 1] ?? Number.POSITIVE_INFINITY;
      console.log(`healthy receivers: p95 ${p95} ms from the event to delivered`);
      // Note: sooner than one timeout of the silent receivers (3 s): none waited for them.
      expect(p95).toBeLessThan(3000);

      // Each silent URL is paused after its failures in a row, with few attempts: the rest wait.
      const paused = await waitUntil(
        async () => {
          const found = await t.testDb.database.db
            .select()
            .from(webhookEndpoints)
            .where(
              inArray(
                webhookEndpoints.url,
                silent.map((r) => r.url),
              ),
            );
          return found.length === 2 && found.every((r) => r.pausedUntil !== null) && found;
        },
        'both silent URLs paused',
        20_000,
      );
      for (const row of paused)
        expect(row.consecutiveFailures).toBeGreaterThanOrEqual(WEBHOOK_PAUSE_AFTER_FAILURES);
      const waiting = await deliveriesOf(stuck);
      expect(waiting.every((r) => r.status === 'pending')).toBe(true);
      const attempted = waiting.filter((r) => r.attemptCount > 0).length;
      expect(attempted).toBeLessThanOrEqual(2 * (WEBHOOK_PAUSE_AFTER_FAILURES + 4));
      // The owner is told once per URL, with what failed.
      const notices = await t.testDb.database.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.kind, 'webhook_paused'), eq(emailOutbox.toAddress, owner.email)));
      expect(notices).toHaveLength(2);
      const mail = renderNotice('webhook_paused', owner.email, notices[0]?.payload ?? {}, null);
      expect(mail.subject).toMatch(/^Webhooks to http:\/\/127\.0\.0\.1:\d+\/hooks are failing/);
      expect(mail.text).toContain('Nothing is lost');
    } finally {
      await loop.stop();
      for (const r of [...silent, ...healthy]) r.stop();
    }
  }, 60_000);

  test('a paused URL resumes by itself when it answers again, and its backlog goes out', async () => {
    let up = false;
    const flaky = receiver(() => (up ? new Response('ok') : new Response('down', { status: 503 })));
    const owner = await ownerWithStore(flaky.url);
    const settings = () => owner.api.get(`/api/stores/${owner.storeId}/webhook`);
    expect((await settings()).body.paused).toBeNull();
    const ids = await enqueue(owner.storeId, flaky.url, 30, new Date());
    const loop = startWebhookDispatcher({
      db: workerDb.db,
      signingKey: newWebhookKeyPair().secretKey,
      allowPrivate: true,
      retryBaseMs: 100,
      timeoutMs: 800,
      pauseBaseMs: 400,
      intervalMs: 50,
      log: () => {},
    });
    try {
      await waitUntil(
        async () => {
          const [row] = await t.testDb.database.db
            .select()
            .from(webhookEndpoints)
            .where(eq(webhookEndpoints.url, flaky.url));
          return row?.pausedAt !== null && row?.pausedAt !== undefined;
        },
        'the failing URL paused',
        20_000,
      );
      // While paused it gets one probe at a time, not the backlog; the owner's page says so.
      const during = flaky.times.length;
      expect(during).toBeLessThan(15);
      const shown = (await settings()).body.paused;
      expect(shown).toMatchObject({ lastError: 'HTTP 503' });
      expect(shown.failures).toBeGreaterThanOrEqual(WEBHOOK_PAUSE_AFTER_FAILURES);
      up = true;
      const rows = await waitUntil(
        async () => {
          const found = await deliveriesOf(ids);
          return found.every((r) => r.status === 'delivered') && found;
        },
        'the backlog delivered after the URL came back',
        30_000,
      );
      expect(rows).toHaveLength(30);
      const [row] = await t.testDb.database.db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.url, flaky.url));
      expect(row).toMatchObject({ consecutiveFailures: 0, pausedAt: null, pausedUntil: null });
      expect((await settings()).body.paused).toBeNull();
      // Each webhook reached it once after it came back (none twice).
      expect(rows.every((r) => r.deliveredAt !== null)).toBe(true);
    } finally {
      await loop.stop();
      flaky.stop();
    }
  }, 60_000);
});
