// Load generators: autocannon against the API, and raw single-row inserts against Postgres.
import autocannon from 'autocannon';
import postgres from 'postgres';

/** One measured workload. */
export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p97_5: number;
  p99: number;
  total: number;
  /** Responses that were not 2xx plus connection errors and timeouts. */
  failures: number;
  /** CPU time used per request (user + system) by the API process(es), Postgres, the bench. */
  cpuMs?: { api?: number; postgres: number; bench: number };
}

/** Options shared by every workload. */
export interface LoadOptions {
  connections: number;
  durationSeconds: number;
}

/** Runs autocannon with `request` against `url` and summarises it. */
export async function httpLoad(
  name: string,
  url: string,
  request: autocannon.Request,
  options: LoadOptions,
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: [request],
  });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    total: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * Runs the same load against several API processes at once (each its own port, as behind a load
 * balancer), `options.connections` split evenly among them. Rates, totals and failures add up;
 * each latency figure is the worst of the processes' (autocannon keeps no histogram to merge).
 */
export async function httpLoadSplit(
  name: string,
  urls: readonly string[],
  request: autocannon.Request,
  options: LoadOptions,
): Promise<LoadResult> {
  if (urls.length === 1) return httpLoad(name, urls[0] as string, request, options);
  const share = Math.max(1, Math.floor(options.connections / urls.length));
  const parts = await Promise.all(
    urls.map((url) => httpLoad(name, url, request, { ...options, connections: share })),
  );
  const sum = (pick: (r: LoadResult) => number) => parts.reduce((a, r) => a + pick(r), 0);
  const worst = (pick: (r: LoadResult) => number) => Math.max(...parts.map(pick));
  return {
    name,
    requestsPerSecond: sum((r) => r.requestsPerSecond),
    p50: worst((r) => r.p50),
    p97_5: worst((r) => r.p97_5),
    p99: worst((r) => r.p99),
    total: sum((r) => r.total),
    failures: sum((r) => r.failures),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** `connections` clients, one connection each, inserting one row per statement for the duration. */
export async function insertLoad(
  databaseUrl: string,
  options: LoadOptions,
  /** Runs when the load is over, while the clients' backends still exist (to read their CPU). */
  beforeEnd: () => Promise<void> = async () => {},
): Promise<LoadResult> {
  const setup = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await setup`create table if not exists bench_rows (
    id uuid primary key default gen_random_uuid(),
    body jsonb not null,
    created_at timestamptz not null default now()
  )`;
  await setup.end();
  const clients = Array.from({ length: options.connections }, () =>
    postgres(databaseUrl, { max: 1, onnotice: () => {} }),
  );
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + options.durationSeconds * 1000;
  await Promise.all(
    clients.map(async (sql, client) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const t0 = performance.now();
        try {
          await sql`insert into bench_rows (body) values (${sql.json({ client, i, note: 'single row' })})`;
          latencies.push(performance.now() - t0);
        } catch {
          failures += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await beforeEnd();
  await Promise.all(clients.map((sql) => sql.end()));
  latencies.sort((a, b) => a - b);
  return {
    name: 'Postgres: single-row INSERT (raw, postgres.js)',
    requestsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p97_5: percentile(latencies, 97.5),
    p99: percentile(latencies, 99),
    total: latencies.length,
    failures,
  };
}
