// A shopper's payment page when the API replica serving its stream stops (a deploy, a scale-down):
// two real API processes on one database behind one address (a proxy that, as a load balancer
// with health checks does, sends each request to the first replica that accepts it), the worker's
// detection loop and a payment on the real chain. The page's stream on the stopping replica ends at
// once; the page reconnects after the retry the stream gave it (as EventSource does), lands on the
// other replica, and is pushed the payment from there within a block or two.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { type ApiProcess, startApiProcess } from '@store/stack/api-process';
import { serviceEnvironments } from '@store/stack/stack';
import { payUsdc } from '@store/stack/usdc';
import { parseUnits } from 'viem';
import { startDetectionLoop } from '../src/worker/detection-loop.ts';
import { useChainApi } from './support/chain-api.ts';
import { payableUniversalOrder } from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';

const CONFIRMATIONS = 2;
const PAYOUT = '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955';

const t = useChainApi({
  confirmations: CONFIRMATIONS,
  poolSize: 3,
  worker: ({ database, config }) =>
    startDetectionLoop({
      db: database.db,
      chainId: config.chain.chainId,
      confirmations: CONFIRMATIONS,
      intervalMs: 100,
      log: () => {},
    }),
});

const replicas: { name: string; api: ApiProcess<'pipe'> }[] = [];
let balancer: ReturnType<typeof Bun.serve> | undefined;

beforeAll(async () => {
  const env = { ...serviceEnvironments(t.stack).api, CONFIRMATIONS: String(CONFIRMATIONS) };
  for (const name of ['a', 'b']) {
    const api = await startApiProcess(t.stack.databaseUrls.api, {
      localMode: true,
      stderr: 'pipe',
      env,
    });
    replicas.push({ name, api });
  }
  // Note: each request goes to the first replica that accepts its connection; the answer says
  // which one served it.
  balancer = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 0,
    fetch: async (request) => {
      const url = new URL(request.url);
      for (const { name, api } of replicas) {
        const answer = await fetch(`${api.url}${url.pathname}${url.search}`, {
          headers: request.headers,
          signal: request.signal,
        }).catch(() => undefined);
        if (!answer) continue;
        const headers = new Headers(answer.headers);
        headers.set('x-replica', name);
        return new Response(answer.body, { status: answer.status, headers });
      }
      return new Response('no replica', { status: 502 });
    },
  });
}, 60_000);

afterAll(async () => {
  balancer?.stop(true);
  for (const { api } of replicas) {
    if (api.proc.exitCode === null) api.proc.kill('SIGKILL');
    await api.proc.exited;
  }
});

/** One status event as the page received it: from which replica, when, after which connection. */
interface Received {
  replica: string;
  connection: number;
  status: string;
  at: number;
}

/**
 * The page's stream as EventSource keeps it: read until the server ends it, then, after the
 * `retry` the server gave, connect again (to the same address), until `stop()`.
 */
function followStream(url: string) {
  const events: Received[] = [];
  const connections: { replica: string; openedAt: number; endedAt?: number }[] = [];
  let stopped = false;
  let current: { cancel(): Promise<void> } | undefined;
  const done = (async () => {
    let retryMs = 3000;
    while (!stopped) {
      const response = await fetch(url).catch(() => undefined);
      if (!response?.body || response.status !== 200) {
        await Bun.sleep(retryMs);
        continue;
      }
      const connection = connections.length;
      const replica = response.headers.get('x-replica') ?? '?';
      connections.push({ replica, openedAt: performance.now() });
      const reader = response.body.getReader();
      current = reader;
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          for (const line of block.split('\n')) {
            if (line.startsWith('retry: ')) retryMs = Number(line.slice(7));
            if (line.startsWith('data: ')) {
              const view = JSON.parse(line.slice(6)) as { status: string };
              events.push({ replica, connection, status: view.status, at: performance.now() });
            }
          }
        }
      }
      const last = connections[connection];
      if (last) last.endedAt = performance.now();
      if (events.at(-1)?.status === 'received') return;
      await Bun.sleep(retryMs);
    }
  })();
  return {
    events,
    connections,
    done,
    stop: async () => {
      stopped = true;
      await current?.cancel().catch(() => {});
    },
  };
}

test('the replica serving a payment stream stops: the page lands on the other and is pushed the payment', async () => {
  const { orderId, address } = await payableUniversalOrder(t.shopper, {
    total: '2.75',
    payout: PAYOUT,
  });
  const stream = followStream(`${balancer?.url}api/orders/${orderId}/payment-events`);
  try {
    await waitUntil(() => stream.events.find((e) => e.replica === 'a'), 'a view from a', 10_000);
    expect(stream.events[0]).toMatchObject({ replica: 'a', status: 'waiting' });

    // Replica a stops as a deploy stops it: its open stream must not hold the stop.
    const a = replicas[0]?.api;
    const stopping = performance.now();
    await a?.stop();
    const stoppedIn = performance.now() - stopping;
    expect(stoppedIn).toBeLessThan(3_000);
    await waitUntil(() => stream.connections[0]?.endedAt, 'the stream on a to end', 5_000);

    // The page reconnects after the stream's retry and lands on b, which shows the same order.
    const onB = await waitUntil(
      () => stream.events.find((e) => e.replica === 'b'),
      'a view from b',
      10_000,
    );
    expect(onB.status).toBe('waiting');
    const gap = onB.at - (stream.connections[0]?.endedAt ?? 0);
    expect(gap).toBeLessThan(3_000 + 1_500);

    // The payment is pushed by b, which never saw the stream begin.
    const paid = await payUsdc(t.stack.env, 1, address, parseUnits('2.75', 6));
    const detected = await waitUntil(
      () => stream.events.find((e) => e.status !== 'waiting'),
      'the payment pushed',
      15_000,
    );
    expect(detected.replica).toBe('b');
    expect(detected.at - paid.minedAt).toBeLessThan(2_000);
    const received = await waitUntil(
      () => stream.events.find((e) => e.status === 'received'),
      'received',
      15_000,
    );
    expect(received.replica).toBe('b');
    expect(new Set(stream.events.map((e) => e.replica))).toEqual(new Set(['a', 'b']));
  } finally {
    await stream.stop();
  }
}, 60_000);
