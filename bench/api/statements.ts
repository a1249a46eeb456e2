// `bun bench/api/statements.ts [--count=3000]`: Postgres CPU time of each of the two statements of
// POST /api/orders (an order of untracked products with an Idempotency-Key), run one after
// another on one connection (and a raw single-row insert and `select 1` beside them), from the
// server's own processes' CPU counters.
import { randomUUID } from 'node:crypto';
import { ORDER_STATEMENTS } from '@store/api/modules/orders/create';
import postgres from 'postgres';
import { postgresCpuSeconds, startApi, startBenchDatabase } from './servers.ts';

const count = Number(process.argv.find((a) => a.startsWith('--count='))?.split('=')[1] ?? 3000);
const database = await startBenchDatabase();
try {
  // The API seeds the demo store; it is stopped before measuring.
  const api = await startApi(database.url);
  const store = (await (await fetch(`${api.url}/api/stores/demo-store`)).json()) as { id: string };
  const products = (await (
    await fetch(`${api.url}/api/stores/${store.id}/products?published=true`)
  ).json()) as Array<{ id: string }>;
  await api.stop();
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  await sql`create table if not exists bench_rows (
    id uuid primary key default gen_random_uuid(), body jsonb not null,
    created_at timestamptz not null default now())`;
  const items = JSON.stringify([
    { productId: products[0]?.id, title: 'Demo', priceUsdc: '10.00', quantity: 1 },
  ]);
  const address = JSON.stringify({
    firstName: 'Bench',
    lastName: 'Mark',
    email: 'bench@example.com',
    phone: '+1 555 0100',
    street: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zipCode: '62701',
  });
  // Note: about the size of a created order's answer.
  const response = JSON.stringify({
    id: randomUUID(),
    items: JSON.parse(items),
    pad: 'x'.repeat(900),
  });
  const keys: string[] = [];
  const statements: Array<[string, (i: number) => Promise<unknown>]> = [
    ['select 1', () => sql`select 1`],
    [
      'raw single-row insert (bench_rows)',
      (i) => sql`insert into bench_rows (body) values (${sql.json({ i, note: 'single row' })})`,
    ],
    [
      'order, 1 of 2: both rate limits, key used?, settings and catalogue',
      (i) => {
        keys[i] = randomUUID();
        return sql.unsafe(
          ORDER_STATEMENTS.open(),
          [
            'orders:client',
            'k-client',
            60,
            1_000_000_000,
            'orders:store',
            'k-store',
            60,
            1_000_000_000,
            'anonymous',
            keys[i] as string,
            store.id,
            [products[0]?.id ?? ''],
          ],
          { prepare: true },
        );
      },
    ],
    [
      'order, 2 of 2: the key with its response and the order',
      (i) =>
        sql.unsafe(
          ORDER_STATEMENTS.keyAndOrder,
          [
            store.id,
            'bench@example.com',
            address,
            items,
            '10.00',
            '5.00',
            '0.80',
            '15.80',
            'anonymous',
            keys[i] as string,
            'POST',
            '/api/orders',
            'h'.repeat(64),
            response,
            randomUUID(),
            'r'.repeat(64),
          ],
          { prepare: true },
        ),
    ],
  ];
  console.log(`Postgres ${database.version}: each statement ${count} times on one connection`);
  for (const [name, run] of statements) {
    for (let i = 0; i < 50; i++) await run(i);
    const before = await postgresCpuSeconds(database.postmasterPid);
    const started = performance.now();
    for (let i = 0; i < count; i++) await run(i);
    const wall = performance.now() - started;
    const cpu = (await postgresCpuSeconds(database.postmasterPid)) - before;
    console.log(
      `${name.padEnd(68)} Postgres CPU ${((cpu * 1000) / count).toFixed(3)} ms  round trip ${(wall / count).toFixed(3)} ms`,
    );
  }
  await sql.end();
} finally {
  await database.stop();
}
