// `bun bench/api/run.ts [--connections=50] [--duration=10] [--processes=1] [--profile]
// [--cpu-profile=<dir>] [--write]`: order creation and store reads under concurrency next to the
// raw Postgres single-row insert rate of the same server. --processes runs that many API processes
// (the connections split among them); --profile samples what Postgres' backends do during order
// creation; --cpu-profile has Bun write the API's CPU profile (markdown) into <dir>; --write puts
// the figures into docs/benchmarks.md (its own section only).
import os from 'node:os';
import { demoStoreOrder } from '@store/stack/api-process';
import type autocannon from 'autocannon';
import postgres from 'postgres';
import { BENCHMARKS_DOC, writeBenchmarkSection } from '../docs-section.ts';
import { httpLoadSplit, insertLoad, type LoadOptions, type LoadResult } from './load.ts';
import { consoleTable, describeMachine, markdownSection } from './report.ts';
import {
  cpuSeconds,
  postgresCpuSeconds,
  type RunningApi,
  startApi,
  startBenchDatabase,
} from './servers.ts';

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const options: LoadOptions = {
  connections: arg('connections', 50),
  durationSeconds: arg('duration', 10),
};
const write = process.argv.includes('--write');
const profile = process.argv.includes('--profile');
const processes = Math.max(1, arg('processes', 1));
const cpuProfileDir = process.argv.find((a) => a.startsWith('--cpu-profile='))?.split('=')[1];

/**
 * `--profile`: what the database's client backends are doing during order creation, sampled
 * every 20 ms from pg_stat_activity (state, wait event, the statement's start), most seen first.
 */
function sampleActivity(databaseUrl: string) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const seen = new Map<string, number>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const rows = await sql<{ what: string }[]>`
        select coalesce(state, '?') || ' | ' || coalesce(wait_event_type || ':' || wait_event, 'cpu')
          || ' | ' || left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 70) as what
        from pg_stat_activity
        where backend_type = 'client backend' and pid <> pg_backend_pid()`;
      for (const { what } of rows) seen.set(what, (seen.get(what) ?? 0) + 1);
      await Bun.sleep(20);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    await sql.end({ timeout: 5 });
    const total = [...seen.values()].reduce((a, b) => a + b, 0);
    return [...seen]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([what, n]) => `${((100 * n) / total).toFixed(1).padStart(5)}%  ${what}`)
      .join('\n');
  };
}

/** CPU seconds so far of the API processes, the Postgres server and this process. */
async function cpuNow(apis: RunningApi[], postmasterPid: number) {
  const usage = process.cpuUsage();
  return {
    api: (await Promise.all(apis.map((a) => cpuSeconds(a.pid)))).reduce((a, b) => a + b, 0),
    postgres: await postgresCpuSeconds(postmasterPid),
    bench: (usage.user + usage.system) / 1e6,
  };
}

/**
 * Runs `load` and adds the CPU time each part used per request to its result; a load whose
 * clients' backends end with it calls `done` before they do.
 */
async function withCpu(
  apis: RunningApi[],
  postmasterPid: number,
  load: (done: () => Promise<void>) => Promise<LoadResult>,
) {
  const before = await cpuNow(apis, postmasterPid);
  let after: Awaited<ReturnType<typeof cpuNow>> | undefined;
  const done = async () => {
    after ??= await cpuNow(apis, postmasterPid);
  };
  const result = await load(done);
  const end = after ?? (await cpuNow(apis, postmasterPid));
  const perRequest = (seconds: number) => (result.total > 0 ? (seconds * 1000) / result.total : 0);
  return {
    ...result,
    cpuMs: {
      api: apis.length > 0 ? perRequest(end.api - before.api) : undefined,
      postgres: perRequest(end.postgres - before.postgres),
      bench: perRequest(end.bench - before.bench),
    },
  };
}

async function measureApi(
  apis: RunningApi[],
  databaseUrl: string,
  postmasterPid: number,
): Promise<LoadResult[]> {
  const urls = apis.map((a) => a.url);
  const apiUrl = urls[0] as string;
  const { storeId, body } = await demoStoreOrder(apiUrl, 'bench@example.com');
  // Note: a fresh Idempotency-Key per request, so that every request creates an order.
  const createOrder: autocannon.Request = {
    method: 'POST',
    path: '/api/orders',
    headers: { 'content-type': 'application/json' },
    body,
    setupRequest: (request) => ({
      ...request,
      headers: { ...request.headers, 'idempotency-key': crypto.randomUUID() },
    }),
  };
  const workloads: Array<[string, autocannon.Request]> = [
    ['API: POST /api/orders', createOrder],
    ['API: GET /api/stores/{slug}', { path: '/api/stores/demo-store' }],
    [
      'API: GET /api/stores/{id}/products',
      { path: `/api/stores/${storeId}/products?published=true` },
    ],
  ];
  // Note: every route is warmed up first (its code compiled by the JIT), each for 2 s.
  for (const [, request] of workloads)
    await httpLoadSplit('warm-up', urls, request, { ...options, durationSeconds: 2 });
  const results: LoadResult[] = [];
  for (const [name, request] of workloads) {
    const sampled = profile && request === createOrder ? sampleActivity(databaseUrl) : undefined;
    results.push(
      await withCpu(apis, postmasterPid, () => httpLoadSplit(name, urls, request, options)),
    );
    if (sampled) console.log(`Backends during POST /api/orders:\n${await sampled()}`);
  }
  return results;
}

const loadAtStart = os.loadavg()[0] ?? 0;
const database = await startBenchDatabase();
let results: LoadResult[] = [];
try {
  console.log(
    `Postgres ${database.version}: ${options.connections} clients inserting single rows…`,
  );
  const raw = await withCpu([], database.postmasterPid, (done) =>
    insertLoad(database.url, options, done),
  );
  const apis: RunningApi[] = [];
  try {
    for (let i = 0; i < processes; i++) apis.push(await startApi(database.url, { cpuProfileDir }));
    console.log(
      `API (${processes} process${processes > 1 ? 'es' : ''}) at ${apis.map((a) => a.url).join(', ')}: ${options.connections} connections, ${options.durationSeconds} s each…`,
    );
    results = [raw, ...(await measureApi(apis, database.url, database.postmasterPid))];
  } finally {
    await Promise.all(apis.map((api) => api.stop()));
  }
} finally {
  await database.stop();
}
const loadAtEnd = os.loadavg()[0] ?? 0;
console.log(`\n${consoleTable(results)}\n`);
const [rawResult, ordersResult] = results;
if (rawResult && ordersResult)
  console.log(
    `POST /api/orders: ${((100 * ordersResult.requestsPerSecond) / rawResult.requestsPerSecond).toFixed(1)}% of the raw insert rate; ${processes} API process(es); load average ${loadAtStart.toFixed(2)} at the start, ${loadAtEnd.toFixed(2)} at the end`,
  );
if (write) {
  const args = process.argv.slice(2);
  const command =
    args.length === 1 ? 'bun run bench:api' : `bun bench/api/run.ts ${args.join(' ')}`;
  await writeBenchmarkSection(
    'api',
    markdownSection(
      results,
      describeMachine(database.version, loadAtStart),
      { ...options, processes, loadAtEnd },
      command,
    ),
  );
  console.log(`Written to ${BENCHMARKS_DOC}`);
}
if (results.some((r) => r.failures > 0)) {
  console.error('Some requests failed: the figures above are not valid.');
  process.exit(1);
}
