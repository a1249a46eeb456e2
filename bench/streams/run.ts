// Payment pages at scale: one API process holding thousands of open payment-status streams
// (GET /api/orders/{id}/payment-events). On the local stack (Postgres, anvil, the indexer) with one
// API process started as `bun run dev` starts it, this process opens `--streams` streams over plain
// sockets, then measures for a sample of orders the push latency from a payment notification (the
// worker's NOTIFY on `payment_changes` after it records a state: here the sample's wallets marked
// expired) to the event at the client, first with only the sample open and then with all the
// streams open; the API's RSS before and after (per stream); and that the stream past the
// process's limit (PAYMENT_STREAMS_MAX, set to `--streams`) gets a 503 with Retry-After.
//   bun bench/streams/run.ts [--streams 5000] [--sample 50] [--no-write]
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { startBenchStack } from '../bench-stack.ts';
import { machine, markdownTable, summarize } from '../detection/report.ts';
import { writeBenchmarkSection } from '../docs-section.ts';
import { createBenchOrder } from '../universal-order.ts';

const { values: args } = parseArgs({
  options: {
    streams: { type: 'string', default: '5000' },
    sample: { type: 'string', default: '50' },
    'no-write': { type: 'boolean', default: false },
  },
});
const STREAMS = Number(args.streams);
const SAMPLE = Number(args.sample);
const PAYOUT = '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955';
const startLoad = loadavg()[0] ?? 0;

const rssOf = async (pid: number) => {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
};

/** One stream over a raw socket: resolves `opened` at the first status event; `expired` when pushed. */
function openStream(port: number, orderId: string) {
  let buffer = '';
  let onOpen: (status: number) => void = () => {};
  let onExpired: (at: number) => void = () => {};
  const opened = new Promise<number>((resolve) => {
    onOpen = resolve;
  });
  const expired = new Promise<number>((resolve) => {
    onExpired = resolve;
  });
  const socket: Socket = connect(port, '127.0.0.1', () => {
    socket.write(
      `GET /api/orders/${orderId}/payment-events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`,
    );
  });
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    const at = performance.now();
    if (buffer.length < 4096) buffer += chunk;
    if (buffer.startsWith('HTTP/1.1 ') && !buffer.startsWith('HTTP/1.1 200'))
      onOpen(Number(buffer.slice(9, 12)));
    else if (buffer.includes('event: status')) onOpen(200);
    if (chunk.includes('"status":"expired"')) onExpired(at);
    // Note: only the head of the stream is kept; later events are looked for chunk by chunk.
    if (buffer.length >= 4096) buffer = buffer.slice(0, 4096);
  });
  socket.on('error', () => onOpen(0));
  return { socket, opened, expired, head: () => buffer };
}

const bench = await startBenchStack('streams');
try {
  const api = bench.start('api', 'index.ts', {
    PORT: String(await (await import('@store/stack/ports')).freePort()),
    PAYMENT_STREAMS_MAX: String(STREAMS),
  });
  // The port is in the service's environment; read it back from the health check below.
  let apiUrl = '';
  for (let i = 0; i < 300 && !apiUrl; i++) {
    const port = /PORT=(\d+)/.exec(
      (await Bun.file(`/proc/${api.pid}/environ`).text()).replaceAll('\0', '\n'),
    )?.[1];
    if (port && (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok)
      apiUrl = `http://127.0.0.1:${port}`;
    else await Bun.sleep(100);
  }
  if (!apiUrl) throw new Error(`the API did not start:\n${bench.logs.join('\n')}`);
  const port = Number(new URL(apiUrl).port);

  // The orders: universal orders with their deposit addresses, created through the API.
  const orderIds: string[] = [];
  for (let i = 0; i < STREAMS; i += 25) {
    const made = await Promise.all(
      Array.from({ length: Math.min(25, STREAMS - i) }, () =>
        createBenchOrder(apiUrl, { storePaymentAddress: PAYOUT }),
      ),
    );
    orderIds.push(...made.map((m) => m.orderId));
  }

  /** Marks `ids`' wallets expired and notifies, one at a time; the latency of each push. */
  const measure = async (streams: ReturnType<typeof openStream>[], ids: string[]) => {
    const latencies: number[] = [];
    for (const [i, id] of ids.entries()) {
      await bench.database.db.execute(
        sql`update payment_wallets set status = 'expired', expired_at = now() - interval '1 minute' where order_id = ${id}`,
      );
      const sent = performance.now();
      await bench.database.db.execute(sql`select pg_notify('payment_changes', ${id})`);
      const at = await Promise.race([streams[i]?.expired, Bun.sleep(10_000).then(() => NaN)]);
      latencies.push((at ?? Number.NaN) - sent);
      await Bun.sleep(20);
    }
    return latencies;
  };

  // Warm-up (code paths compiled, pools open), then the API's memory at rest.
  const warm = await Promise.all(orderIds.slice(0, 5).map((id) => openStream(port, id)));
  await Promise.all(warm.map((s) => s.opened));
  for (const s of warm) s.socket.destroy();
  await Bun.sleep(500);
  const rssBefore = await rssOf(api.pid);

  // 1. Only the sample open.
  const sampleA = orderIds.slice(5, 5 + SAMPLE);
  const alone = sampleA.map((id) => openStream(port, id));
  await Promise.all(alone.map((s) => s.opened));
  const latencyAlone = await measure(alone, sampleA);
  for (const s of alone) s.socket.destroy();
  await Bun.sleep(500);

  // 2. Every stream open (the first ones reused as the second sample), opened 250 at a time.
  const all: ReturnType<typeof openStream>[] = [];
  const openStarted = performance.now();
  const rest = orderIds.slice(5 + SAMPLE);
  const ids = [...rest, ...orderIds.slice(0, 5 + SAMPLE)].slice(0, STREAMS);
  const statuses: number[] = [];
  for (let i = 0; i < ids.length; i += 250) {
    const batch = ids.slice(i, i + 250).map((id) => openStream(port, id));
    statuses.push(...(await Promise.all(batch.map((s) => s.opened))));
    all.push(...batch);
  }
  const openSeconds = (performance.now() - openStarted) / 1000;
  const okCount = statuses.filter((s) => s === 200).length;
  await Bun.sleep(2000);
  const rssAfter = await rssOf(api.pid);
  // One more past the limit.
  const extra = await fetch(`${apiUrl}/api/orders/${orderIds[0]}/payment-events`);
  const refused = `${extra.status}, Retry-After ${extra.headers.get('retry-after')}`;
  await extra.body?.cancel();
  const sampleB = rest.slice(0, SAMPLE);
  const latencyAll = await measure(all.slice(0, SAMPLE), sampleB);
  const rssEnd = await rssOf(api.pid);
  for (const s of all) s.socket.destroy();

  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const row = (label: string, values: number[]) => {
    const ok = values.filter((v) => Number.isFinite(v));
    const s = summarize(ok);
    return [label, String(ok.length), ms(s.p50), ms(s.p95), ms(s.max)];
  };
  const a = summarize(latencyAlone.filter(Number.isFinite));
  const b = summarize(latencyAll.filter(Number.isFinite));
  const perStream = (rssAfter - rssBefore) / okCount;
  const body = [
    '## Payment pages at scale (`bench/streams`)',
    '',
    `Command: \`bun bench/streams/run.ts --streams ${STREAMS} --sample ${SAMPLE}\`. Machine: ${await machine(startLoad)}; load average ${(loadavg()[0] ?? 0).toFixed(2)} at the end.`,
    '',
    `One API process (\`PAYMENT_STREAMS_MAX=${STREAMS}\`) on the local stack; ${okCount} of ${STREAMS} streams opened (each a socket from this process, ${openSeconds.toFixed(1)} s to open them 250 at a time), the one past the limit answered ${refused}.`,
    '',
    markdownTable(
      ['payment notification → event at the client', 'pushes', 'p50', 'p95', 'max'],
      [row(`${SAMPLE} streams open`, latencyAlone), row(`${okCount} streams open`, latencyAll)],
    ),
    '',
    markdownTable(
      ['API process memory (RSS)', 'value'],
      [
        ['at rest, after warm-up', `${(rssBefore / 2 ** 20).toFixed(0)} MiB`],
        [`with ${okCount} streams open`, `${(rssAfter / 2 ** 20).toFixed(0)} MiB`],
        ['per open stream', `${(perStream / 1024).toFixed(1)} KiB`],
        ['after the pushes', `${(rssEnd / 2 ** 20).toFixed(0)} MiB`],
      ],
    ),
    '',
    `Reading: the push latency with ${okCount} streams open is ${(b.p50 / a.p50).toFixed(2)}× (p50) and ${(b.p95 / a.p95).toFixed(2)}× (p95) the latency with ${SAMPLE}: a notification costs one query for the streams of its order, whatever else is open, and the periodic recheck of every stream is one query every 10 s for all of them, in a lane of its own (a notification never waits behind it). The latency is from the NOTIFY (sent right after the wallet row changed) to the bytes at the client, on 2 cores shared by Postgres, anvil, the indexer, the API and the ${okCount} client sockets of this process. Past \`PAYMENT_STREAMS_MAX\` (10,000 by default) a new stream gets the 503 with Retry-After and the payment page polls the status every 10 s, asking for the stream again after 30 s.`,
  ].join('\n');
  console.log(body);
  if (!args['no-write']) await writeBenchmarkSection('streams', body);
} finally {
  await bench.stop();
}
