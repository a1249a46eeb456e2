// `bun bench/api/statements.ts [--count=3000]`: Postgres CPU time of each statement of
// POST /api/orders, run one after another on one connection (and a raw single-row insert and
// `select 1` beside them), from the server's own processes' CPU counters.
import { randomUUID } from 'node:crypto';
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
      'rate limits: client and store upserts (one statement)',
      () => sql`with c0 as (
        insert into rate_limits as r (bucket, key, hits, window_ends_at)
        select 'orders:client', 'k-client', 1, now() + make_interval(secs => 60::float8)
        on conflict (bucket, key) do update set
          hits = case when r.window_ends_at <= now() then 1 else least(r.hits, 2147483646) + 1 end,
          window_ends_at = case when r.window_ends_at <= now() then excluded.window_ends_at
            else r.window_ends_at end
        returning hits, extract(epoch from window_ends_at - now())::float8 * 1000 as wait_ms),
      c1 as (
        insert into rate_limits as r (bucket, key, hits, window_ends_at)
        select 'orders:store', 'k-store', 1, now() + make_interval(secs => 60::float8)
        where (select hits from c0) <= 1000000000
        on conflict (bucket, key) do update set
          hits = case when r.window_ends_at <= now() then 1 else least(r.hits, 2147483646) + 1 end,
          window_ends_at = case when r.window_ends_at <= now() then excluded.window_ends_at
            else r.window_ends_at end
        returning hits, extract(epoch from window_ends_at - now())::float8 * 1000 as wait_ms)
      select 0 as i, hits > 1000000000 as refused, wait_ms from c0
      union all select 1, hits > 1000000000, wait_ms from c1`,
    ],
    [
      'idempotency claim (insert)',
      (i) => {
        keys[i] = randomUUID();
        return sql`insert into idempotency_keys (scope, key, method, path, request_hash)
          values ('anonymous', ${keys[i] as string}, 'POST', '/api/orders', ${'h'.repeat(64)})
          on conflict do nothing returning key`;
      },
    ],
    [
      'catalogue and settings (select)',
      () => sql`select s.is_active, s.payment_address, s.tax_rate_bps, s.shipping_options,
          s.shipping_time, s.return_policy_days, p.id as product_id, p.title, p.price_usdc,
          p.image_url, p.inventory, p.track_inventory
        from stores s
        left join products p on p.store_id = s.id and p.is_published
          and p.id = any(${[products[0]?.id ?? '']}::uuid[])
        where s.id = ${store.id}::uuid`,
    ],
    [
      'order insert (returning the row)',
      () => sql`insert into orders (store_id, customer_email, shipping_address, items,
          subtotal_usdc, shipping_usdc, tax_usdc, total_usdc, status, stock_held_until)
        values (${store.id}, 'bench@example.com', ${address}::jsonb, ${items}::jsonb, '10.00',
          '5.00', '0.80', '15.80', 'pending', null)
        returning *`,
    ],
    [
      'idempotency result (update)',
      (i) => sql`update idempotency_keys set response_status = 201,
          response_body = ${response}::jsonb
        where scope = 'anonymous' and key = ${keys[i] as string}`,
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
      `${name.padEnd(56)} Postgres CPU ${((cpu * 1000) / count).toFixed(3)} ms  round trip ${(wall / count).toFixed(3)} ms`,
    );
  }
  await sql.end();
} finally {
  await database.stop();
}
