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

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** `connections` clients, one connection each, inserting one row per statement for the duration. */
export async function insertLoad(databaseUrl: string, options: LoadOptions): Promise<LoadResult> {
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
