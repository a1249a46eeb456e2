// Benchmark of webhooks at scale: events arrive at a steady rate for 100 receivers, of which 10
// never answer (each send waits the full 10 s timeout) and 10 answer 500; the dispatcher runs as in
// the worker (the worker's database role, its defaults: 64 sends, 4 per URL, retries from 5 s).
// Reports how soon the healthy receivers get each webhook (event → delivered, p50/p95/max), that
// each got each one exactly once, and that the failing URLs were paused and their owners told;
// writes docs/benchmarks.md's "webhooks" section.
//   bun bench/webhooks/run.ts [--rate 167] [--seconds 60] [--no-write]
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, migrateDatabase } from '@store/api/db/client';
import { startWebhookDispatcher } from '@store/api/webhooks/dispatcher';
import { newWebhookKeyPair, newWebhookSecret } from '@store/api/webhooks/signing';
import { freePort } from '@store/stack/ports';
import { enableRoleLogins, startEmbeddedPostgres } from '@store/stack/postgres';
import postgres from 'postgres';
import { machine, markdownTable, summarize } from '../detection/report.ts';
import { writeBenchmarkSection } from '../docs-section.ts';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '167' },
    seconds: { type: 'string', default: '60' },
    'no-write': { type: 'boolean', default: false },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const ENDPOINTS = 100;
const SILENT = 10;
const FAILING = 10;
const startLoad = loadavg()[0] ?? 0;

type Kind = 'healthy' | 'silent' | 'failing';
const kindOf = (i: number): Kind =>
  i < SILENT ? 'silent' : i < SILENT + FAILING ? 'failing' : 'healthy';

// One receiver process-wide, one path per endpoint: /e{i}.
const seen = new Map<string, number>();
const receiver = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  idleTimeout: 0,
  fetch: async (request) => {
    await request.text();
    const index = Number(new URL(request.url).pathname.slice(2));
    const kind = kindOf(index);
    if (kind === 'silent') return new Promise<Response>(() => {});
    if (kind === 'failing') return new Response('down', { status: 500 });
    const id = request.headers.get('webhook-id') ?? '';
    seen.set(id, (seen.get(id) ?? 0) + 1);
    return new Response('ok');
  },
});
const urlOf = (i: number) => `http://127.0.0.1:${receiver.port}/e${i}`;

const dataDir = await mkdtemp(join(tmpdir(), 'bench-webhooks-'));
const pg = await startEmbeddedPostgres({
  dataDir: join(dataDir, 'postgres'),
  port: await freePort(),
  ephemeral: true,
});
const admin = postgres(pg.url, { max: 4, onnotice: () => {} });
let worker: ReturnType<typeof createDatabase> | undefined;
try {
  await migrateDatabase(pg.url);
  const urls = await enableRoleLogins(pg.url, {
    api: 'api-pw',
    worker: 'worker-pw',
    indexer: 'indexer-pw',
    analyst: 'analyst-pw',
  });
  worker = createDatabase(urls.worker, { max: 16 });
  // One merchant (verified email) and store per endpoint, each with its URL and secret.
  const storeIds: string[] = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const [user] = await admin<{ id: string }[]>`
      insert into users (username, password, email, email_verified_at)
      values (${`bench-${i}`}, 'x', ${`bench-${i}@merchant.test`}, now()) returning id`;
    const [store] = await admin<{ id: string }[]>`
      insert into stores (name, slug, owner_id, webhook_url, webhook_secret)
      values (${`Bench ${i}`}, ${`bench-${i}`}, ${user?.id ?? ''}, ${urlOf(i)}, ${newWebhookSecret()})
      returning id`;
    storeIds.push(store?.id ?? '');
  }

  const dispatcher = startWebhookDispatcher({
    db: worker.db,
    signingKey: newWebhookKeyPair().secretKey,
    allowPrivate: true,
    retryBaseMs: 5000,
    log: () => {},
  });
  // Events at a steady rate, each for a random endpoint, inserted as the outbox does and woken.
  const total = Math.round(RATE * SECONDS);
  const started = performance.now();
  let sent = 0;
  const tickMs = 100;
  while (sent < total) {
    const due = Math.min(total, Math.round(((performance.now() - started) / 1000) * RATE));
    const batch = Array.from({ length: due - sent }, () => {
      const i = Math.floor(Math.random() * ENDPOINTS);
      return {
        order_id: crypto.randomUUID(),
        store_id: storeIds[i] ?? '',
        event_type: 'order.paid',
        url: urlOf(i),
        payload: JSON.stringify({ type: 'order.paid', endpoint: i }),
        retry_until: new Date(Date.now() + 3 * 24 * 3600 * 1000),
      };
    });
    if (batch.length > 0) {
      await admin`insert into webhook_deliveries ${admin(batch)}`;
      dispatcher.wake();
      sent = due;
    }
    await Bun.sleep(tickMs);
  }
  const arrivalSeconds = (performance.now() - started) / 1000;
  // Wait until every healthy delivery is delivered (or two minutes pass).
  const healthyUrls = Array.from({ length: ENDPOINTS }, (_, i) => i)
    .filter((i) => kindOf(i) === 'healthy')
    .map(urlOf);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const [row] = await admin<{ left: number }[]>`
      select count(*)::int as left from webhook_deliveries
      where url = any(${healthyUrls}) and status <> 'delivered'`;
    if ((row?.left ?? 1) === 0 || Date.now() > deadline) break;
    await Bun.sleep(250);
  }
  await dispatcher.stop();
  const rows = await admin<
    { url: string; status: string; waitMs: number | null; attempts: number }[]
  >`
    select url, status, attempt_count as attempts,
      extract(epoch from delivered_at - created_at) * 1000 as "waitMs"
    from webhook_deliveries`;
  const byKind = (kind: Kind) =>
    rows.filter((r) => kindOf(Number(new URL(r.url).pathname.slice(2))) === kind);
  const healthy = byKind('healthy');
  const waits = summarize(healthy.map((r) => Number(r.waitMs ?? Number.POSITIVE_INFINITY)));
  const undelivered = healthy.filter((r) => r.status !== 'delivered').length;
  const twice = [...seen.values()].filter((n) => n > 1).length;
  const [paused] = await admin<{ n: number }[]>`
    select count(*)::int as n from webhook_endpoints where paused_at is not null`;
  const [notices] = await admin<{ n: number }[]>`
    select count(*)::int as n from email_outbox where kind = 'webhook_paused'`;
  const lost = rows.filter((r) => r.status === 'failed').length;
  const attemptsFailing = byKind('failing').reduce((n, r) => n + r.attempts, 0);
  const attemptsSilent = byKind('silent').reduce((n, r) => n + r.attempts, 0);
  const ms = (v: number) => `${Math.round(v)} ms`;
  const table = markdownTable(
    ['figure', 'value'],
    [
      [
        'events',
        `${rows.length} in ${arrivalSeconds.toFixed(1)} s (${RATE}/s) to ${ENDPOINTS} URLs`,
      ],
      [
        'healthy receivers: event → delivered',
        `p50 ${ms(waits.p50)}, p95 ${ms(waits.p95)}, max ${ms(waits.max)}`,
      ],
      ['healthy deliveries not delivered / received twice', `${undelivered} / ${twice}`],
      ['URLs paused (of 10 silent + 10 answering 500)', String(paused?.n ?? 0)],
      ['owners told (one mail per paused URL)', String(notices?.n ?? 0)],
      [
        'attempts on the silent / failing URLs',
        `${attemptsSilent} / ${attemptsFailing} (for ${byKind('silent').length} / ${byKind('failing').length} deliveries, which wait)`,
      ],
      ['deliveries given up', String(lost)],
    ],
  );
  const body = [
    '## Webhooks at scale',
    '',
    `\`bun bench/webhooks/run.ts --rate ${RATE} --seconds ${SECONDS}\` on this machine. Machine: ${await machine(startLoad)}.`,
    '',
    table,
    '',
    'Reading: a receiver that never answers holds at most 4 sends (each waits the 10 s timeout) until its 5th failure in a row pauses it; the healthy receivers never wait behind it. Paused URLs keep their deliveries (none is dropped) and get one probe at a time, every 30 s doubling to an hour; their owners get one email each.',
  ].join('\n');
  console.log(body);
  if (!args['no-write']) await writeBenchmarkSection('webhooks', body);
} finally {
  await worker?.close();
  await admin.end();
  await pg.stop();
  receiver.stop(true);
  await rm(dataDir, { recursive: true, force: true });
}
