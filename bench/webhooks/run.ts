// Benchmark of webhooks at scale: events arrive at a steady rate for 100 receivers (local HTTP
// servers in this process), of which 10 never answer (each send waits the full 10 s timeout) and
// 10 answer 500; the dispatcher runs as in the worker (the worker's database role, its defaults:
// retries from 5 s, separate budgets for answering and failing URLs), except that a URL is paused
// after `--pause-after` seconds of failures instead of 3 days, so the run shows the pause. Once the
// events are in, the failing receivers come back and answer 200: the paused URLs must resume by
// themselves and their backlog go out.
// Reports how soon the healthy receivers get each webhook (event → delivered, p50/p95/max), that
// each got each one exactly once, how closely the failing URLs' retries kept their schedule (no
// attempt early; lateness), the pauses, the owners' mails and the resumption; writes
// docs/benchmarks.md's "webhooks" section.
//   bun bench/webhooks/run.ts [--rate 167] [--seconds 60] [--pause-after 30] [--no-write]
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, migrateDatabase } from '@store/api/db/client';
import { backoffDelayMs } from '@store/api/loops/backoff';
import { MAX_RETRY_DELAY_MS, startWebhookDispatcher } from '@store/api/webhooks/dispatcher';
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
    'pause-after': { type: 'string', default: '30' },
    'no-write': { type: 'boolean', default: false },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const PAUSE_AFTER_S = Number(args['pause-after']);
const RETRY_BASE_MS = 5000;
const PROBE_BASE_MS = 5000;
const ENDPOINTS = 100;
const SILENT = 10;
const FAILING = 10;
const startLoad = loadavg()[0] ?? 0;

type Kind = 'healthy' | 'silent' | 'failing';
const kindOf = (i: number): Kind =>
  i < SILENT ? 'silent' : i < SILENT + FAILING ? 'failing' : 'healthy';

// One receiver process-wide, one path per endpoint: /e{i}; the failing ones answer 200 once `revived`.
const seen = new Map<string, number>();
let revived = false;
const receiver = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  idleTimeout: 0,
  fetch: async (request) => {
    await request.text();
    const index = Number(new URL(request.url).pathname.slice(2));
    const kind = kindOf(index);
    if (!revived && kind === 'silent') return new Promise<Response>(() => {});
    if (!revived && kind === 'failing') return new Response('down', { status: 500 });
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
    retryBaseMs: RETRY_BASE_MS,
    pauseAfterMs: PAUSE_AFTER_S * 1000,
    pauseBaseMs: PROBE_BASE_MS,
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
  const ms = (v: number) => `${Math.round(v)} ms`;
  const arrivalSeconds = (performance.now() - started) / 1000;
  // Wait until every healthy delivery is delivered (or two minutes pass).
  const healthyUrls = Array.from({ length: ENDPOINTS }, (_, i) => i)
    .filter((i) => kindOf(i) === 'healthy')
    .map(urlOf);
  const waitFor = async (query: () => Promise<boolean>, ms: number) => {
    const until = Date.now() + ms;
    while (!(await query()) && Date.now() < until) await Bun.sleep(250);
  };
  await waitFor(async () => {
    const [row] = await admin<{ left: number }[]>`
      select count(*)::int as left from webhook_deliveries
      where url = any(${healthyUrls}) and status <> 'delivered'`;
    return (row?.left ?? 1) === 0;
  }, 120_000);
  // The pauses as they stand before the receivers come back (an answer clears them).
  const pauses = await admin<{ url: string; pausedAt: Date; failingSince: Date }[]>`
    select url, paused_at as "pausedAt", failing_since as "failingSince" from webhook_endpoints
    where paused_at is not null`;
  const pausedAt = new Map(pauses.map((p) => [p.url, p.pausedAt.getTime()]));
  const [notices] = await admin<{ n: number }[]>`
    select count(*)::int as n from email_outbox where kind = 'webhook_paused'`;
  const [backlogRow] = await admin<{ n: number }[]>`
    select count(*)::int as n from webhook_deliveries where status = 'pending'`;
  // The failing receivers come back: the paused URLs resume on their next probe.
  revived = true;
  const revivedAt = performance.now();
  await waitFor(async () => {
    const [row] = await admin<{ left: number }[]>`
      select count(*)::int as left from webhook_deliveries where status <> 'delivered'`;
    return (row?.left ?? 1) === 0;
  }, 180_000);
  const drainSeconds = (performance.now() - revivedAt) / 1000;
  await dispatcher.stop();
  const rows = await admin<
    { url: string; status: string; waitMs: number | null; attempts: number }[]
  >`
    select url, status, attempt_count as attempts,
      extract(epoch from delivered_at - created_at) * 1000 as "waitMs"
    from webhook_deliveries`;
  const indexOf = (url: string) => Number(new URL(url).pathname.slice(2));
  const byKind = (kind: Kind) => rows.filter((r) => kindOf(indexOf(r.url)) === kind);
  const healthy = byKind('healthy');
  const waits = summarize(healthy.map((r) => Number(r.waitMs ?? Number.POSITIVE_INFINITY)));
  const undelivered = healthy.filter((r) => r.status !== 'delivered').length;
  const twice = [...seen.values()].filter((n) => n > 1).length;
  const [resumed] = await admin<{ n: number }[]>`
    select count(*)::int as n from webhook_endpoints
    where paused_at is null and consecutive_failures = 0`;
  const lost = rows.filter((r) => r.status !== 'delivered').length;
  // The retry schedule: each retry of a failing URL's delivery, before its URL was paused, against
  // the backoff after the previous attempt (an early one would break the schedule).
  const attempts = await admin<{ id: string; url: string; at: Date }[]>`
    select a.delivery_id as id, d.url, a.attempted_at as at from webhook_attempts a
    join webhook_deliveries d on d.id = a.delivery_id
    where not (d.url = any(${healthyUrls})) order by a.delivery_id, a.attempted_at`;
  const lateness: Record<'silent' | 'failing', number[]> = { silent: [], failing: [] };
  let early = 0;
  for (let i = 1; i < attempts.length; i++) {
    const previous = attempts[i - 1];
    const attempt = attempts[i];
    if (!previous || !attempt || previous.id !== attempt.id) continue;
    const paused = pausedAt.get(attempt.url);
    if (paused !== undefined && attempt.at.getTime() >= paused) continue;
    let n = 1;
    for (let j = i - 1; j > 0 && attempts[j - 1]?.id === attempt.id; j--) n += 1;
    const due = backoffDelayMs(n, RETRY_BASE_MS, MAX_RETRY_DELAY_MS);
    const gap = attempt.at.getTime() - previous.at.getTime();
    if (gap < due) early += 1;
    const kind = kindOf(indexOf(attempt.url)) as 'silent' | 'failing';
    // Note: a retry is due `due` after its previous attempt started, and cannot start before that
    // attempt ended (after the 10 s timeout for a silent URL).
    lateness[kind].push(gap - Math.max(due, kind === 'silent' ? 10_000 : 0));
  }
  const late = (kind: 'silent' | 'failing') => {
    const s = summarize(lateness[kind]);
    return `${lateness[kind].length} retries: p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, max ${ms(s.max)}`;
  };
  const attemptsFailing = byKind('failing').reduce((n, r) => n + r.attempts, 0);
  const attemptsSilent = byKind('silent').reduce((n, r) => n + r.attempts, 0);
  const failingFor = summarize(
    pauses.map((p) => (p.pausedAt.getTime() - p.failingSince.getTime()) / 1000),
  );
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
      [
        'healthy deliveries not delivered / webhook-ids received twice',
        `${undelivered} / ${twice}`,
      ],
      [
        'attempts on the silent / failing URLs',
        `${attemptsSilent} / ${attemptsFailing} (for ${byKind('silent').length} / ${byKind('failing').length} deliveries)`,
      ],
      ['retries sooner than their schedule', String(early)],
      ['retry later than scheduled, URLs answering 500', late('failing')],
      ['retry later than scheduled, silent URLs (or than the 10 s wait)', late('silent')],
      [
        `URLs paused (failing for ${PAUSE_AFTER_S} s configured)`,
        `${pauses.length} of 20, after failing ${failingFor.p50.toFixed(1)}-${failingFor.max.toFixed(1)} s`,
      ],
      ['owners told (one mail per paused URL)', String(notices?.n ?? 0)],
      [
        'after the failing receivers came back',
        `${backlogRow?.n ?? 0} waiting deliveries all delivered in ${drainSeconds.toFixed(1)} s; ${resumed?.n ?? 0} URLs resumed (failures cleared)`,
      ],
      ['deliveries not delivered at the end', String(lost)],
    ],
  );
  const body = [
    '## Webhooks at scale',
    '',
    `\`bun bench/webhooks/run.ts --rate ${RATE} --seconds ${SECONDS} --pause-after ${PAUSE_AFTER_S}\` (\`bun run bench:webhooks\`) on this machine. Machine: ${await machine(startLoad)}; load average ${(loadavg()[0] ?? 0).toFixed(2)} at the end.`,
    '',
    table,
    '',
    "Reading: the dispatcher runs with the worker's defaults (answering URLs: 64 sends in flight, 8 per URL; failing URLs: 1,024, 64 per URL; retries 5 s doubling), in one process with Postgres and the 100 receivers on the same 2 cores. A silent receiver's sends each wait the 10 s timeout on the failing budget, so the healthy receivers never wait behind them, and every failing delivery is retried on its own schedule (none early; \"later than scheduled\" is the claim's delay, and for silent URLs the time a send waited for a free place among its URL's 64). A URL failing without a break for the configured time (3 days in production, `WEBHOOK_PAUSE_AFTER_MS`; seconds here) is paused: its deliveries wait, one probe goes every 5 s doubling (30 s in production), the owner gets one email; when the receiver answers again the probe resumes it and the backlog goes out, each webhook once.",
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
