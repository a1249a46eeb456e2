// The payment status pushed as Server-Sent Events (GET /api/orders/{id}/payment-events) on the
// real chain: Postgres, anvil (200 ms blocks) with Circle's USDC, the Ponder indexer and the
// worker's detection loop, whose notifications the API listens to. Shoppers pay from anvil test
// accounts; every assertion reads the stream the payment page reads.
import { describe, expect, test } from 'bun:test';
import { payUsdc } from '@store/stack/usdc';
import { createPublicClient, http, parseUnits } from 'viem';
import { type App, createApp } from '../src/app.ts';
import { ORDER_MESSAGES } from '../src/modules/orders/model.ts';
import { PAYMENT_STREAM_MESSAGES } from '../src/modules/payments/payment-events.ts';
import { startDetectionLoop } from '../src/worker/detection-loop.ts';
import { useChainApi } from './support/chain-api.ts';
import { payableUniversalOrder } from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';

const CONFIRMATIONS = 4; // 800 ms at 200 ms blocks: the progress below depth is visible
const PAYOUT = '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955';
const POLL_INTERVAL_MS = 10_000;

const t = useChainApi({
  confirmations: CONFIRMATIONS,
  poolSize: 5,
  worker: ({ database, config }) =>
    startDetectionLoop({
      db: database.db,
      chainId: config.chain.chainId,
      confirmations: CONFIRMATIONS,
      intervalMs: 100,
      log: () => {},
    }),
});

/** One status event as the page receives it, with when it arrived (performance.now()). */
interface Pushed {
  view: {
    paymentDetected: boolean;
    status: string;
    receivedAmount: string;
    expectedAmount: string;
    expiredAt: string | null;
    confirmations: number | null;
    requiredConfirmations: number;
    exception: string;
  };
  at: number;
}

/** Opens the order's stream on `app` and reads its events as they arrive. */
async function subscribe(app: App, orderId: string, headers: Record<string, string> = {}) {
  const response = await app.handle(
    new Request(`http://localhost/api/orders/${orderId}/payment-events`, { headers }),
  );
  const events: Pushed[] = [];
  const raw: string[] = [];
  if (response.status !== 200 || !response.body) {
    return { response, events, raw, ended: Promise.resolve(), close: async () => {} };
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        raw.push(block);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (data) events.push({ view: JSON.parse(data), at: performance.now() });
      }
    }
  })();
  return { response, events, raw, ended, close: () => reader.cancel() };
}

type Subscription = Awaited<ReturnType<typeof subscribe>>;

/** The first event whose view satisfies `match`. */
const pushed = (stream: Subscription, match: (view: Pushed['view']) => boolean, what: string) =>
  waitUntil(() => stream.events.find((event) => match(event.view)), what, 20_000);

const usdc = (amount: string) => parseUnits(amount, 6);

describe('a payment pushed to the page', () => {
  test('detected within a block of the transfer, confirmations counted to the depth, then received and the end of the stream', async () => {
    const { orderId, address } = await payableUniversalOrder(t.shopper, {
      total: '3.50',
      payout: PAYOUT,
    });
    const stream = await subscribe(t.app, orderId);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers.get('cache-control')).toBe('no-store');
    expect(stream.response.headers.get('x-content-type-options')).toBe('nosniff');
    const first = await pushed(stream, () => true, 'the first event');
    expect(first.view).toEqual({
      paymentDetected: false,
      status: 'waiting',
      receivedAmount: '0.000000',
      expectedAmount: '3.50',
      expiredAt: expect.any(String),
      confirmations: 0,
      requiredConfirmations: CONFIRMATIONS,
      exception: 'none',
    });
    expect(stream.raw[0]).toBe('retry: 3000');

    const paid = await payUsdc(t.stack.env, 1, address, usdc('3.50'));
    const detected = await pushed(
      stream,
      (view) => view.status === 'detected_pending_processing',
      'detected',
    );
    // Note: the page's poll would see it only at its next 10 s tick; the push comes with the block.
    expect(detected.at - paid.minedAt).toBeLessThan(2_000);
    expect(detected.view).toMatchObject({
      paymentDetected: true,
      receivedAmount: '3.500000',
      requiredConfirmations: CONFIRMATIONS,
    });
    expect(detected.view.confirmations).toBeGreaterThanOrEqual(1);
    expect(detected.view.confirmations).toBeLessThan(CONFIRMATIONS);

    const received = await pushed(stream, (view) => view.status === 'received', 'received');
    expect(received.view).toMatchObject({ paymentDetected: true, confirmations: CONFIRMATIONS });
    await stream.ended; // the server ends the stream once the order is paid
    const statuses = stream.events.map((event) => event.view.status);
    expect([...new Set(statuses)]).toEqual(['waiting', 'detected_pending_processing', 'received']);
    // Confirmations only grow, one view per change, never the same view twice in a row.
    const counts = stream.events.map((event) => event.view.confirmations ?? 0);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const views = stream.events.map((event) => JSON.stringify(event.view));
    expect(views.every((view, i) => i === 0 || view !== views[i - 1])).toBe(true);
    // Note: the worker records no change between detected and received; the counts in between come
    // from the indexed heads it notifies.
    const belowDepth = new Set(counts.filter((n) => n > 0 && n < CONFIRMATIONS));
    expect(belowDepth.size).toBeGreaterThanOrEqual(2);
    expect(detected.at - paid.minedAt).toBeLessThan(POLL_INTERVAL_MS);
  }, 30_000);

  test('a partial payment is pushed as underpaid with the amount seen, and the top-up completes it', async () => {
    const { orderId, address } = await payableUniversalOrder(t.shopper, {
      total: '5.00',
      payout: PAYOUT,
    });
    const stream = await subscribe(t.app, orderId);
    await pushed(stream, (view) => view.status === 'waiting', 'waiting');
    await payUsdc(t.stack.env, 2, address, usdc('2.00'));
    const underpaid = await pushed(stream, (view) => view.status === 'underpaid', 'underpaid');
    expect(underpaid.view).toMatchObject({
      paymentDetected: false,
      receivedAmount: '2.000000',
      expectedAmount: '5.00',
    });
    await payUsdc(t.stack.env, 2, address, usdc('3.00'));
    await pushed(stream, (view) => view.status === 'received', 'received');
    await stream.ended;
  }, 30_000);

  test('more than due is pushed with the amount received', async () => {
    const { orderId, address } = await payableUniversalOrder(t.shopper, {
      total: '1.00',
      payout: PAYOUT,
    });
    const stream = await subscribe(t.app, orderId);
    await payUsdc(t.stack.env, 3, address, usdc('1.25'));
    const received = await pushed(stream, (view) => view.status === 'received', 'received');
    expect(received.view.receivedAmount).toBe('1.250000');
    expect(received.view.expectedAmount).toBe('1.00');
    expect(received.view.exception).toBe('overpaid');
    // Note: the excess is pushed from detection on, though stored only at depth.
    const detected = stream.events.filter((e) => e.view.status === 'detected_pending_processing');
    expect(detected.map((e) => e.view.exception)).toEqual(detected.map(() => 'overpaid'));
    await stream.ended;
  }, 30_000);

  test('the end of the payment window is pushed as expired, and the stream stays open for a late payment', async () => {
    const shortWindow = t.appWithWindow(3);
    const { orderId } = await payableUniversalOrder(shortWindow, { total: '2.00', payout: PAYOUT });
    const stream = await subscribe(t.app, orderId);
    await pushed(stream, (view) => view.status === 'waiting', 'waiting');
    const expired = await pushed(stream, (view) => view.status === 'expired', 'expired');
    expect(expired.view.paymentDetected).toBe(false);
    let ended = false;
    void stream.ended.then(() => {
      ended = true;
    });
    await Bun.sleep(300);
    expect(ended).toBe(false);
    await stream.close();
  }, 30_000);

  test('an order already paid gets its view and the end of the stream', async () => {
    const { orderId, address } = await payableUniversalOrder(t.shopper, {
      total: '1.10',
      payout: PAYOUT,
    });
    await payUsdc(t.stack.env, 4, address, usdc('1.10'));
    const first = await subscribe(t.app, orderId);
    await pushed(first, (view) => view.status === 'received', 'received');
    await first.ended;
    const again = await subscribe(t.app, orderId);
    await again.ended;
    expect(again.events.map((event) => event.view.status)).toEqual(['received']);
  }, 30_000);
});

describe("the worker's wake-up", () => {
  test('a detection pass starts when the indexer commits a block, not only at its interval', async () => {
    const passes = { woken: 0, interval: 0 };
    const loop = (wakeOnIndexedBlocks: boolean) =>
      startDetectionLoop({
        db: t.workerDatabase.db,
        chainId: t.config.chain.chainId,
        confirmations: CONFIRMATIONS,
        intervalMs: 60_000,
        wakeOnIndexedBlocks,
        log: () => {},
        onPass: () => {
          passes[wakeOnIndexedBlocks ? 'woken' : 'interval'] += 1;
        },
      });
    const loops = [loop(true), loop(false)];
    await Bun.sleep(1_500); // about 7 blocks of 200 ms
    await Promise.all(loops.map((l) => l.stop()));
    expect(passes.interval).toBe(1);
    expect(passes.woken).toBeGreaterThanOrEqual(4);
  });
});

describe('what the stream refuses and shows', () => {
  test('an unknown order is a 404 with the order message, not a stream', async () => {
    for (const id of ['5b0f7a2e-4a57-4c38-9d0e-1c3cbe0e4f11', 'not-an-id']) {
      const stream = await subscribe(t.app, id);
      expect(stream.response.status).toBe(404);
      expect(await stream.response.json()).toEqual({
        error: { code: 'not_found', message: ORDER_MESSAGES.notFound },
      });
    }
  });

  test('a view holds states and amounts only: no address, customer or key', async () => {
    const { orderId } = await payableUniversalOrder(t.shopper, { total: '4.00', payout: PAYOUT });
    const stream = await subscribe(t.app, orderId);
    const first = await pushed(stream, () => true, 'the first event');
    expect(Object.keys(first.view).sort()).toEqual([
      'confirmations',
      'exception',
      'expectedAmount',
      'expiredAt',
      'paymentDetected',
      'receivedAmount',
      'requiredConfirmations',
      'status',
    ]);
    expect(stream.raw.join('\n')).not.toMatch(/0x[0-9a-fA-F]{40}|@example|mnemonic|xpub/);
    await stream.close();
  });

  test("another site's page may open it (a GET changes nothing), as the payment page is public", async () => {
    const { orderId } = await payableUniversalOrder(t.shopper, { total: '4.00', payout: PAYOUT });
    const stream = await subscribe(t.app, orderId, {
      origin: 'https://elsewhere.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('access-control-allow-origin')).toBeNull();
    await stream.close();
  });

  test('one client holds at most its cap of streams; a closed one frees its place', async () => {
    const capped = createApp({
      db: t.database.db,
      config: { ...t.config, rateLimits: { ...t.config.rateLimits, paymentStreamsPerClient: 2 } },
      chain: createPublicClient({ transport: http(t.config.chain.rpcUrl) }),
    });
    const { orderId } = await payableUniversalOrder(t.shopper, { total: '4.00', payout: PAYOUT });
    const a = await subscribe(capped, orderId);
    const b = await subscribe(capped, orderId);
    const c = await subscribe(capped, orderId);
    expect([a.response.status, b.response.status, c.response.status]).toEqual([200, 200, 429]);
    expect(await c.response.json()).toEqual({
      error: { code: 'rate_limited', message: PAYMENT_STREAM_MESSAGES.tooManyForClient },
    });
    await a.close();
    await waitUntil(async () => {
      const d = await subscribe(capped, orderId);
      if (d.response.status !== 200) return false;
      await d.close();
      return true;
    }, 'a place after closing a stream');
    await b.close();
  });

  test('streams opened all at once by one client still stop at its cap', async () => {
    const capped = createApp({
      db: t.database.db,
      config: { ...t.config, rateLimits: { ...t.config.rateLimits, paymentStreamsPerClient: 2 } },
      chain: createPublicClient({ transport: http(t.config.chain.rpcUrl) }),
    });
    const { orderId } = await payableUniversalOrder(t.shopper, { total: '4.50', payout: PAYOUT });
    const opened = await Promise.all(Array.from({ length: 8 }, () => subscribe(capped, orderId)));
    const statuses = opened.map((stream) => stream.response.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429, 429, 429]);
    for (const stream of opened) await stream.close();
  });

  test('one client opens at most its streams per minute (429 with Retry-After)', async () => {
    const { orderId } = await payableUniversalOrder(t.shopper, { total: '4.00', payout: PAYOUT });
    // Note: the counters are shared in Postgres with this file's other streams; a client of its own.
    const headers = { 'x-forwarded-for': '203.0.113.77' };
    const trusted = createApp({
      db: t.database.db,
      config: {
        ...t.config,
        trustProxy: true,
        rateLimits: { ...t.config.rateLimits, paymentStreamsPerMinute: 2 },
      },
      chain: createPublicClient({ transport: http(t.config.chain.rpcUrl) }),
    });
    const opened = [];
    for (let i = 0; i < 3; i++) opened.push(await subscribe(trusted, orderId, headers));
    expect(opened.map((s) => s.response.status)).toEqual([200, 200, 429]);
    expect(opened[2]?.response.headers.get('retry-after')).toMatch(/^\d+$/);
    for (const s of opened) await s.close();
  });
});

describe("the process's limit of open streams", () => {
  test('past it a new stream gets a 503 with Retry-After while the status API still answers; a closed stream frees its place', async () => {
    const limited = createApp({
      db: t.database.db,
      config: { ...t.config, paymentStreamsMax: 3 },
      chain: createPublicClient({ transport: http(t.config.chain.rpcUrl) }),
    });
    const orders = await Promise.all(
      ['5.01', '5.02', '5.03', '5.04'].map((total) =>
        payableUniversalOrder(t.shopper, { total, payout: PAYOUT }),
      ),
    );
    // Each from its own client, so only the process's limit applies.
    const opened = [];
    for (const [i, { orderId }] of orders.entries())
      opened.push(await subscribe(limited, orderId, { 'x-forwarded-for': `198.51.100.${i + 1}` }));
    expect(opened.map((s) => s.response.status)).toEqual([200, 200, 200, 503]);
    const refused = opened[3]?.response;
    expect(refused?.headers.get('retry-after')).toBe('30');
    expect(refused?.headers.get('content-type')).toContain('application/json');
    expect(await refused?.json()).toEqual({
      error: { code: 'unavailable', message: PAYMENT_STREAM_MESSAGES.tooManyOpen },
    });
    // The refused page polls the status API instead, which answers as usual.
    const polled = await limited.handle(
      new Request(`http://localhost/api/check-payment-status/${orders[3]?.orderId}`),
    );
    expect(polled.status).toBe(200);
    expect(((await polled.json()) as { status: string }).status).toBe('waiting');
    // The open streams carry on; closing one lets the next page in.
    expect(opened[0]?.events[0]?.view.status).toBe('waiting');
    await opened[0]?.close();
    const next = await waitUntil(async () => {
      const again = await subscribe(limited, orders[3]?.orderId ?? '');
      if (again.response.status === 200) return again;
      return false;
    }, 'a place after closing a stream');
    for (const s of [...opened.slice(1, 3), next]) await s.close();
  });
});
