// Benchmark of the analytics views at scale: an embedded Postgres with the migrations, the
// indexer's table as Ponder makes it (as its role, with its `to` index) and the worker's analysts'
// indexes, filled with 1,000,000 indexed transfers (payments to 100,000 orders' deposit addresses,
// their 200,000 forwarding legs and unrelated transfers) over a year, 100 stores, 10% universal
// orders. Times the analysts' and the merchants' questions (each run 5 times, after one warm-up)
// and writes docs/benchmarks.md's "analytics" section.
//   bun bench/analytics/run.ts [--transfers 1000000] [--orders 100000] [--no-write]
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DATABASE_ROLES, migrateDatabase } from '@store/api/db/client';
import { freePort } from '@store/stack/ports';
import { enableRoleLogins, startEmbeddedPostgres } from '@store/stack/postgres';
import postgres from 'postgres';
import { machine, markdownTable, summarize } from '../detection/report.ts';
import { writeBenchmarkSection } from '../docs-section.ts';

const { values: args } = parseArgs({
  options: {
    transfers: { type: 'string', default: '1000000' },
    orders: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '5' },
    'no-write': { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
  },
});
const TRANSFERS = Number(args.transfers);
const ORDERS = Number(args.orders);
const RUNS = Number(args.runs);
const STORES = 100;
const startLoad = loadavg()[0] ?? 0;

const dataDir = await mkdtemp(join(tmpdir(), 'bench-analytics-'));
const pg = await startEmbeddedPostgres({
  dataDir: join(dataDir, 'postgres'),
  port: await freePort(),
  ephemeral: true,
});
const clients: postgres.Sql[] = [];
const connect = (url: string) => {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  clients.push(sql);
  return sql;
};
const READING =
  "Reading: what merchants wait for is small and stays so: a store's 30-day chart and a year of its accounting export read only that store's rows (the filters reach both branches of `daily_volume`). An analyst's scan of every store's year in `daily_volume` takes seconds at this size on two busy cores: each forwarding leg's mined time is one index lookup by transaction, and a filter on `day` is an expression of the block time, so it narrows the rows only after they are joined. That is the view's price for staying exact and live with no refresh; if analysts run it often, the next step is a materialised table the worker extends block by block (not done: the merchants' questions do not need it).";
const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

try {
  await migrateDatabase(pg.url);
  const urls = await enableRoleLogins(pg.url, {
    api: 'api-pw',
    worker: 'worker-pw',
    indexer: 'indexer-pw',
    analyst: 'analyst-pw',
  });
  const admin = connect(pg.url);
  const indexer = connect(urls.indexer);
  const analyst = connect(urls.analyst);
  const api = connect(urls.api);
  const worker = connect(urls.worker);

  const loadStarted = performance.now();
  // The indexer's table as Ponder 0.16 creates it from indexer/ponder.schema.ts.
  await indexer.unsafe(`
    create schema indexer;
    create table indexer.transfer (id text primary key, "from" text not null, "to" text not null,
      value numeric(78) not null, block_number numeric(78) not null,
      block_timestamp numeric(78) not null, tx_hash text not null, log_index integer not null)`);
  const storeId = (i: string) =>
    `('00000000-0000-4000-8000-' || lpad(to_hex(${i}), 12, '0'))::uuid`;
  const orderId = (i: string) =>
    `('10000000-0000-4000-8000-' || lpad(to_hex(${i}), 12, '0'))::uuid`;
  const address = (base: number, i: string) => `'0x' || lpad(to_hex(${base} + ${i}), 40, '0')`;
  const hash = (tag: string, i: string) =>
    `'0x' || md5('${tag}' || ${i}) || md5('${tag}x' || ${i})`;
  const treasury = `'0x${'7'.repeat(40)}'`;
  await admin.unsafe(`
    insert into users (id, username, password)
      values ('00000000-0000-4000-8000-000000000000', 'bench', 'x');
    insert into stores (id, name, slug, owner_id, payment_address)
      select ${storeId('i')}, 'Store ' || i, 'store-' || i, '00000000-0000-4000-8000-000000000000',
        ${address(1_000_000, 'i')}
      from generate_series(1, ${STORES}) i;
    -- Orders over the last year; every tenth is an unsigned link's (no store).
    insert into orders (id, store_id, source, payee_address, customer_email, items, total_usdc,
        status, created_at)
      select ${orderId('i')},
        case when i % 10 = 0 then null else ${storeId(`(1 + i % ${STORES})`)} end,
        case when i % 10 = 0 then 'unsigned_link' else 'storefront' end,
        case when i % 10 = 0 then ${address(1_000_000, `(1 + i % ${STORES})`)} end,
        'shopper@example.com', '[]', (5 + i % 50)::numeric(10, 2), 'paid',
        now() - make_interval(secs => (i::bigint * 31536000 / ${ORDERS}))
      from generate_series(1, ${ORDERS}) i;
    insert into payment_wallets (order_id, wallet_address, derivation_path, derivation_index,
        expected_amount_usdc, store_payment_address, payment_chain, status,
        received_amount_usdc, forwarded_amount_usdc, forwarding_status,
        expired_at, created_at)
      select o.id, ${address(0, 'i')}, 'm/' || i, i, o.total_usdc,
        ${address(1_000_000, `(1 + i % ${STORES})`)}, 'base', 'received',
        o.total_usdc, o.total_usdc, 'completed',
        o.created_at + interval '7 days', o.created_at
      from generate_series(1, ${ORDERS}) i join orders o on o.id = ${orderId('i')};
    -- Forwarding legs: the merchant's 98% and the 2% fee, confirmed.
    insert into forwarding_transfers (wallet_id, round, leg, mode, from_address, to_address, value,
        tx_hash, status, block_number, gas_cost_wei, created_at, confirmed_at)
      select w.id, 1, leg, 'eip3009', w.wallet_address,
        case leg when 'fee' then ${treasury} else w.store_payment_address end,
        case leg when 'fee' then w.expected_amount_usdc * 20000
          else w.expected_amount_usdc * 980000 end,
        ${hash('leg', '(w.derivation_index || leg)')}, 'confirmed',
        floor(extract(epoch from w.created_at)) / 2 + 3, 30000000000000,
        w.created_at + interval '3 seconds', w.created_at + interval '5 seconds'
      from payment_wallets w cross join (values ('merchant'), ('fee')) legs(leg);
    analyze`);
  // Payments (every twentieth order paid in two transfers), legs, then unrelated transfers.
  await admin.unsafe(`
    insert into indexer.transfer
      select 'p-' || w.derivation_index || '-' || part, ${address(2_000_000, `(w.derivation_index % 5000)`)},
        w.wallet_address,
        case when w.derivation_index % 20 <> 0 then w.expected_amount_usdc * 1000000
          when part = 1 then w.expected_amount_usdc * 400000
          else w.expected_amount_usdc * 600000 end,
        floor(extract(epoch from w.created_at)) / 2 + part,
        floor(extract(epoch from w.created_at)) + 2 * part,
        ${hash('pay', "(w.derivation_index || '-' || part)")}, 0
      from payment_wallets w cross join generate_series(1, 2) part
      where part = 1 or w.derivation_index % 20 = 0;
    insert into indexer.transfer
      select 'f-' || f.id, lower(f.from_address), lower(f.to_address), f.value, f.block_number,
        floor(extract(epoch from f.created_at)) + 2, f.tx_hash, 1
      from forwarding_transfers f`);
  const [{ n: related } = { n: 0 }] = await admin<{ n: number }[]>`
    select count(*)::int as n from indexer.transfer`;
  await admin.unsafe(`
    insert into indexer.transfer
      select 'x-' || i, ${address(3_000_000, '(i % 200000)')}, ${address(4_000_000, '(i % 300000)')},
        1 + i % 1000000000, ${Math.floor(Date.now() / 2000)} - i / 4,
        ${Math.floor(Date.now() / 1000)} - (i::bigint * 31536000 / ${Math.max(1, TRANSFERS - related)}),
        ${hash('x', 'i')}, i % 50
      from generate_series(1, ${Math.max(0, TRANSFERS - related)}) i`);
  await indexer.unsafe('create index transfer_to_index on indexer.transfer ("to")');
  const [{ created } = { created: 0 }] = await worker<{ created: number }[]>`
    select analytics_jobs.ensure_transfer_indexes() as created`;
  await admin.unsafe('analyze');
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const [counts] = await admin<{ transfers: number; orders: number; legs: number }[]>`
    select (select count(*)::int from indexer.transfer) as transfers,
      (select count(*)::int from orders) as orders,
      (select count(*)::int from forwarding_transfers) as legs`;
  const oneStore = `00000000-0000-4000-8000-${(7).toString(16).padStart(12, '0')}`;

  const cases: Array<{ label: string; sql: postgres.Sql; query: string; rows?: number }> = [
    {
      label: 'analyst: `select * from analytics.daily_volume` (every day and store of the year)',
      sql: analyst,
      query: 'select * from analytics.daily_volume',
    },
    {
      label: 'analyst: daily volume of the last 30 days',
      sql: analyst,
      query: 'select * from analytics.daily_volume where day > current_date - 30',
    },
    {
      label: "merchant: one store's 30-day chart (GET /api/stores/{id}/analytics/daily)",
      sql: api,
      query: `select r.day, coalesce(sum(v.gross_usdc), 0) from generate_series(current_date - 29, current_date, interval '1 day') r(day)
        left join (select * from analytics.daily_volume where store_id = any(array['${oneStore}']::uuid[])
          and day >= current_date - 29) v on v.day = r.day
        group by r.day`,
    },
    {
      label: 'analyst: payers per store (`analytics.payments`, year)',
      sql: analyst,
      query:
        'select store_id, count(distinct payer), sum(amount_usdc) from analytics.payments group by 1',
    },
    {
      label: "merchant: one store's money movements of a year (the accounting export's query)",
      sql: api,
      query: `select * from (
        select p.block_time as time, p.tx_hash, p.amount_base_units from analytics.payments p
        where p.store_id = '${oneStore}'::uuid and p.block_time >= now() - interval '366 days'
        union all
        select s.mined_at, s.tx_hash, s.amount_base_units from analytics.settlements s
        where s.store_id = '${oneStore}'::uuid and s.mined_at >= now() - interval '366 days') m
        order by time`,
    },
    {
      label: 'analyst: transfers of one payer (`indexer.transfer`, the `from` index)',
      sql: analyst,
      query: `select * from indexer.transfer where "from" = '0x${(2_000_042).toString(16).padStart(40, '0')}'`,
    },
  ];
  const rows: string[][] = [];
  if (args.explain) {
    for (const c of cases.slice(0, 3)) {
      const plan = await c.sql.unsafe(`explain (analyze, buffers off) ${c.query}`);
      console.log(`${c.label}\n${plan.map((r) => r['QUERY PLAN']).join('\n')}\n`);
    }
  }
  for (const c of cases) {
    const result = await c.sql.unsafe(c.query); // warm-up
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await c.sql.unsafe(c.query);
      times.push(performance.now() - started);
    }
    const s = summarize(times);
    rows.push([c.label, String(result.length), ms(s.p50), ms(s.max)]);
    console.log(`${c.label}: ${result.length} rows, p50 ${ms(s.p50)}, max ${ms(s.max)}`);
  }
  const body = [
    '## Analytics views',
    '',
    `\`bun bench/analytics/run.ts\`: an embedded Postgres 18 with the migrations; \`indexer.transfer\` as Ponder creates it, holding ${counts?.transfers.toLocaleString('en-US')} transfers over a year (a payment to each of ${counts?.orders.toLocaleString('en-US')} orders' deposit addresses, every twentieth order paid in two, their ${counts?.legs.toLocaleString('en-US')} forwarding legs, the rest unrelated), ${STORES} stores, 10% universal orders; the analysts' indexes put back by the worker's function (${created} created). Loaded in ${loadSeconds.toFixed(0)} s. Each query ran once to warm up, then ${RUNS} times, as the role that asks it (${DATABASE_ROLES.analyst} or ${DATABASE_ROLES.api}).`,
    '',
    markdownTable(['query', 'rows', 'p50', 'max'], rows),
    '',
    READING,
    '',
    await machine(startLoad),
  ].join('\n');
  console.log(body);
  if (!args['no-write']) await writeBenchmarkSection('analytics', body);
} finally {
  await Promise.all(clients.map((sql) => sql.end({ timeout: 5 })));
  await pg.stop();
  await rm(dataDir, { recursive: true, force: true });
}
