// Least privilege on the real Postgres and the real processes: each role (API, worker, indexer,
// analyst) can do its job and nothing else (no superuser, no public tables for the indexer and
// analysts, no server files); the API process started the way the dev command starts it holds no
// secret, while it answers as its role.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateLocalKeys, loadOrCreateRolePasswords } from '@store/stack/keys';
import { freePort } from '@store/stack/ports';
import { databaseUrlAs, startEmbeddedPostgres } from '@store/stack/postgres';
import { type Service, startService } from '@store/stack/process';
import { serviceEnvironments } from '@store/stack/stack';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { ConfigError } from '../src/config.ts';
import {
  DATABASE_ROLES,
  MIGRATIONS_FOLDER,
  migrateDatabase,
  migrateOrCheckDatabase,
  pendingMigrations,
} from '../src/db/client.ts';
import { STACK_TIMEOUT_MS, startTestDatabase, type TestDatabase } from './support/database.ts';
import { startTestStack, type TestStack } from './support/stack.ts';

const DENIED = /permission denied/;
const clients: postgres.Sql[] = [];
const connect = (url: string) => {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  clients.push(sql);
  return sql;
};
/** The same server, another database. */
const inDatabase = (url: string, name: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

describe('database roles', () => {
  let testDb: TestDatabase;
  let admin: postgres.Sql;
  let as: Record<keyof typeof DATABASE_ROLES, postgres.Sql>;

  beforeAll(async () => {
    testDb = await startTestDatabase();
    admin = connect(testDb.adminUrl);
    as = {
      api: connect(testDb.roleUrls.api),
      worker: connect(testDb.roleUrls.worker),
      indexer: connect(testDb.roleUrls.indexer),
      analyst: connect(testDb.roleUrls.analyst),
    };
    // What Ponder does at its first start, as the indexer's role.
    await as.indexer.unsafe(`
      create schema if not exists indexer;
      create table indexer.transfer (id text primary key, "to" text not null, value numeric(78, 0));
      insert into indexer.transfer values ('1', '0xabc', 5)`);
  }, STACK_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all(clients.map((sql) => sql.end({ timeout: 5 })));
    await testDb?.stop();
  }, STACK_TIMEOUT_MS);

  test('none is a superuser or may create roles or databases, or read server files', async () => {
    const rows = await admin<{ rolname: string; powers: boolean; readsFiles: boolean }[]>`
      select rolname, rolsuper or rolcreaterole or rolcreatedb or rolreplication or rolbypassrls
          as powers,
        pg_has_role(oid, 'pg_read_server_files', 'USAGE')
          or pg_has_role(oid, 'pg_execute_server_program', 'USAGE') as "readsFiles"
      from pg_roles where rolname like 'storefront\\_%' order by rolname`;
    expect(rows.map((r) => r.rolname)).toEqual(Object.values(DATABASE_ROLES).sort());
    for (const row of rows) expect({ ...row, powers: false, readsFiles: false }).toEqual(row);
  });

  test('the indexer cannot read the product: users, sessions, stores, or files', async () => {
    for (const table of ['users', 'sessions', 'stores', 'orders', 'webhook_deliveries']) {
      await expect(as.indexer.unsafe(`select * from public.${table}`)).rejects.toThrow(DENIED);
    }
    await expect(as.indexer`select pg_read_file('/etc/passwd')`).rejects.toThrow(DENIED);
    await expect(as.indexer`select * from pg_ls_dir('.')`).rejects.toThrow(DENIED);
    await expect(as.indexer.unsafe('create table public.planted (id int)')).rejects.toThrow(DENIED);
    await expect(as.indexer.unsafe("copy indexer.transfer from '/etc/hostname'")).rejects.toThrow(
      /permission denied|must be superuser|pg_read_server_files/,
    );
  });

  test('the indexer learns our addresses from its one function: the highest index and refunds, nothing else', async () => {
    const [row] = await as.indexer<{ state: { highestIndex: number; refunds: unknown[] } }[]>`
      select indexer_feed.watch_state() as state`;
    expect(row?.state).toMatchObject({
      highestIndex: expect.any(Number),
      refunds: expect.any(Array),
    });
    // Only the indexer may call it; nobody may add to its schema.
    for (const role of [as.api, as.worker, as.analyst])
      await expect(role`select indexer_feed.watch_state()`).rejects.toThrow(DENIED);
    await expect(
      as.indexer.unsafe(
        'create function indexer_feed.planted() returns int language sql as $$select 1$$',
      ),
    ).rejects.toThrow(DENIED);
    // Through it the indexer still reads no table of the product.
    await expect(as.indexer`select * from public.payment_wallets`).rejects.toThrow(DENIED);
  });

  test('the indexer creates its schemas and tables (as Ponder does)', async () => {
    await as.indexer.unsafe(`
      create schema ponder_probe;
      create table ponder_probe.t (id int primary key);
      create function ponder_probe.f() returns trigger language plpgsql as 'begin return new; end';
      create trigger t_f before insert on ponder_probe.t for each row execute function ponder_probe.f();
      insert into ponder_probe.t values (1);
      drop schema ponder_probe cascade`);
  });

  test('the API reads and writes the product, reads the indexer, and cannot change the schema', async () => {
    const [user] = await as.api<{ id: string }[]>`
      insert into users (username, password) values ('roles-api', 'x') returning id`;
    expect(user?.id).toBeString();
    expect((await as.api`select username from users where username = 'roles-api'`).length).toBe(1);
    expect((await as.api`select nextval('payment_derivation_index_seq')`).length).toBe(1);
    expect((await as.api`select value::text from indexer.transfer`)[0]).toEqual({ value: '5' });
    await expect(as.api.unsafe('create table public.planted (id int)')).rejects.toThrow(DENIED);
    await expect(as.api.unsafe('create table planted (id int)')).rejects.toThrow(DENIED);
    await expect(as.api.unsafe('alter table users add column planted int')).rejects.toThrow(
      /must be owner/,
    );
    await expect(as.api.unsafe('drop table sessions')).rejects.toThrow(/must be owner/);
    await expect(as.api`select pg_read_file('/etc/passwd')`).rejects.toThrow(DENIED);
    await expect(as.api.unsafe('create schema planted')).rejects.toThrow(DENIED);
  });

  test("the worker reads stores and its tables, never users' secrets, sessions, idempotency keys, API keys, checkout sessions, link secrets, account tokens, recovery codes or reviews", async () => {
    expect((await as.worker`select count(*)::int as n from stores`)[0]).toEqual({ n: 0 });
    expect((await as.worker`select count(*)::int as n from payment_wallets`)[0]).toEqual({ n: 0 });
    expect((await as.worker`select count(*)::int as n from indexer.transfer`)[0]).toEqual({ n: 1 });
    for (const table of [
      'users',
      'sessions',
      'idempotency_keys',
      'api_keys',
      'checkout_sessions',
      'store_link_secrets',
      'store_slugs',
      'account_tokens',
      'recovery_codes',
      'reviews',
    ]) {
      await expect(as.worker.unsafe(`select * from ${table}`)).rejects.toThrow(DENIED);
    }
    // Note: a merchant's email (for paid-order notices) and nothing else of the account.
    expect(Array.isArray(await as.worker`select id, email, email_verified_at from users`)).toBe(
      true,
    );
    for (const column of ['password', 'totp_secret', 'username']) {
      await expect(as.worker.unsafe(`select ${column} from users`)).rejects.toThrow(DENIED);
    }
    await expect(as.worker.unsafe("update stores set name = 'x'")).rejects.toThrow(DENIED);
    await expect(as.worker.unsafe('create table planted (id int)')).rejects.toThrow(DENIED);
  });

  test('an analyst reads the indexer and the analytics views only, and writes nowhere', async () => {
    expect((await as.analyst`select count(*)::int as n from indexer.transfer`)[0]).toEqual({
      n: 1,
    });
    for (const table of [
      'users',
      'sessions',
      'stores',
      'orders',
      'payment_wallets',
      'forwarding_transfers',
      'api_keys',
    ]) {
      await expect(as.analyst.unsafe(`select * from public.${table}`)).rejects.toThrow(DENIED);
    }
    await expect(
      as.analyst.unsafe("insert into indexer.transfer values ('2', '0x1', 1)"),
    ).rejects.toThrow(DENIED);
    await expect(as.analyst.unsafe("delete from indexer.transfer where id = '1'")).rejects.toThrow(
      DENIED,
    );
    await expect(as.analyst.unsafe('create schema planted')).rejects.toThrow(DENIED);
    await expect(as.analyst.unsafe('create table analytics.planted (id int)')).rejects.toThrow(
      DENIED,
    );
    await expect(as.analyst.unsafe('create view analytics.planted as select 1')).rejects.toThrow(
      DENIED,
    );
    await expect(as.analyst.unsafe('drop view analytics.payments')).rejects.toThrow(
      /must be owner/,
    );
    // The worker's jobs on the indexer's table are not theirs (nor the API's).
    for (const role of ['analyst', 'api'] as const) {
      await expect(
        as[role].unsafe("select analytics_jobs.delete_indexed_transfers(array['1'], 1e12)"),
      ).rejects.toThrow(DENIED);
    }
    await expect(
      as.analyst.unsafe('select analytics_jobs.ensure_transfer_indexes()'),
    ).rejects.toThrow(DENIED);
    // Note: the views expose no shopper's email or address, and a view's rows are the views' own.
    const columns = await as.analyst<{ column_name: string }[]>`
      select column_name from information_schema.columns where table_schema = 'analytics'`;
    expect(columns.length).toBeGreaterThan(30);
    expect(columns.map((c) => c.column_name)).not.toContain('customer_email');
    expect(columns.map((c) => c.column_name)).not.toContain('shipping_address');
  });

  test("an analyst's sessions are bounded: connections, statement time, no temporary tables or large objects", async () => {
    const [role] = await admin<{ limit: number }[]>`
      select rolconnlimit as limit from pg_roles where rolname = 'storefront_analyst'`;
    expect(role?.limit).toBe(4);
    expect((await as.analyst`show statement_timeout`)[0]).toEqual({ statement_timeout: '1min' });
    expect((await as.analyst`show idle_in_transaction_session_timeout`)[0]).toEqual({
      idle_in_transaction_session_timeout: '5min',
    });
    await expect(as.analyst.unsafe('create temp table planted (id int)')).rejects.toThrow(DENIED);
    for (const call of ['lo_create(0)', 'lo_creat(-1)', "lo_from_bytea(0, '\\x00')"])
      await expect(as.analyst.unsafe(`select ${call}`)).rejects.toThrow(DENIED);
    // The processes keep what they use.
    for (const role of [as.api, as.worker])
      await role.begin((sql) => sql.unsafe('create temp table scratch (id int) on commit drop'));
  });

  test('tables the indexer creates again later are readable by the API, the worker and analysts', async () => {
    // As when the stack resets the indexer's data and Ponder starts from scratch.
    await admin.unsafe('drop schema indexer cascade');
    await as.indexer.unsafe(`
      create schema indexer;
      create table indexer.transfer (id text primary key, "to" text not null, value numeric(78, 0));
      insert into indexer.transfer values ('9', '0xdef', 7)`);
    for (const role of ['api', 'worker', 'analyst'] as const) {
      expect((await as[role]`select id from indexer.transfer`)[0]).toEqual({ id: '9' });
    }
  });

  test("re-indexing (Ponder's schema dropped and its table made again) keeps the analytics views and the worker gets its indexes back", async () => {
    // Ponder's DROP ... CASCADE: nothing of ours depends on its table, so nothing of ours goes.
    await admin.unsafe('drop schema indexer cascade');
    const views = await admin<{ name: string }[]>`
      select table_name as name from information_schema.views where table_schema = 'analytics'
      order by 1`;
    expect(views.map((v) => v.name)).toEqual([
      'daily_volume',
      'merchant_refunds',
      'payments',
      'settlements',
    ]);
    // Without the table, a query says so (rather than returning nothing).
    await expect(as.analyst`select * from analytics.payments`).rejects.toThrow(/does not exist/);
    expect((await as.worker`select analytics_jobs.ensure_transfer_indexes() as n`)[0]).toEqual({
      n: 0,
    });
    // The table as Ponder makes it (ponder.schema.ts), with a payment to a deposit address.
    await as.indexer.unsafe(`
      create schema indexer;
      create table indexer.transfer (id text primary key, "from" text not null, "to" text not null,
        value numeric(78) not null, block_number numeric(78) not null,
        block_timestamp numeric(78) not null, tx_hash text not null, log_index integer not null);
      create index transfer_to_index on indexer.transfer ("to")`);
    const [order] = await as.api<{ id: string }[]>`
      insert into orders (store_id, source, payee_address, customer_email, items, total_usdc)
      values (null, 'unsigned_link', '0x1', 'a@example.com', '[]', '5.00') returning id`;
    const deposit = '0x00000000000000000000000000000000000000Aa';
    await as.api`
      insert into payment_wallets (order_id, wallet_address, derivation_path, derivation_index,
        expected_amount_usdc, store_payment_address, payment_chain)
      values (${order?.id ?? ''}, ${deposit}, 'm/0', 900001, '5.00', '0x1', 'base')`;
    await as.indexer`
      insert into indexer.transfer values
        ('p1', '0xpayer', ${deposit.toLowerCase()}, 5000000, 10, 1700000000, '0xt1', 0),
        ('x1', '0xpayer', '0xsomeoneelse', 7, 11, 1700000001, '0xt2', 0)`;
    for (const role of ['analyst', 'api'] as const) {
      const rows = await as[role]<
        { amount: string; classification: string; store: string | null; universal: boolean }[]
      >`select amount_usdc::text as amount, classification, store_id as store,
          is_universal as universal from analytics.payments`;
      expect([...rows]).toEqual([
        { amount: '5.000000', classification: 'exact', store: null, universal: true },
      ]);
    }
    expect(
      (await as.analyst`select payments::int, gross_usdc::text from analytics.daily_volume`)[0],
    ).toEqual({ payments: 1, gross_usdc: '5.000000' });
    // The worker's retention run puts the analysts' indexes back on the new table.
    expect((await as.worker`select analytics_jobs.ensure_transfer_indexes() as n`)[0]).toEqual({
      n: 3,
    });
    const indexes = await admin<{ name: string; owner: string }[]>`
      select c.relname as name, pg_get_userbyid(c.relowner) as owner from pg_index i
      join pg_class c on c.oid = i.indexrelid where i.indrelid = 'indexer.transfer'::regclass
      order by 1`;
    expect(indexes.map((i) => i.name)).toEqual([
      'analytics_transfer_block_timestamp_idx',
      'analytics_transfer_from_idx',
      'analytics_transfer_tx_hash_idx',
      'transfer_pkey',
      'transfer_to_index',
    ]);
    expect(new Set(indexes.map((i) => i.owner))).toEqual(new Set([DATABASE_ROLES.indexer]));
    // Retention's delete: only what it names, only when older than the cut-off.
    expect(
      (
        await as.worker`select analytics_jobs.delete_indexed_transfers(array['x1', 'p1'], 1700000001) as n`
      )[0],
    ).toEqual({ n: 1 });
    expect(
      (await as.worker<{ id: string }[]>`select id from indexer.transfer order by id`).map(
        (r) => r.id,
      ),
    ).toEqual(['x1']);
    // A cut-off in the future deletes nothing of the last 30 days (a recent transfer stays).
    const recent = Math.floor(Date.now() / 1000) - 24 * 3600;
    await as.indexer`
      insert into indexer.transfer values
        ('r1', '0xpayer', '0xsomeoneelse', 9, 12, ${recent}, '0xt3', 0)`;
    expect(
      (await as.worker`select analytics_jobs.delete_indexed_transfers(array['r1'], 1e12) as n`)[0],
    ).toEqual({ n: 0 });
    expect(
      (await as.worker<{ id: string }[]>`select id from indexer.transfer order by id`).map(
        (r) => r.id,
      ),
    ).toEqual(['r1', 'x1']);
    // The worker itself still cannot write the indexer's table.
    await expect(as.worker.unsafe("delete from indexer.transfer where id = 'x1'")).rejects.toThrow(
      DENIED,
    );
  });

  test('a schema named after the API role cannot shadow its tables', async () => {
    await as.indexer.unsafe(`
      create schema storefront_api;
      create table storefront_api.users (username text);
      insert into storefront_api.users values ('planted')`);
    const rows = await as.api<{ username: string }[]>`select username from users`;
    expect(rows.map((r) => r.username)).not.toContain('planted');
    await as.indexer.unsafe('drop schema storefront_api cascade');
  });

  test('another database of the same cluster migrates too (the roles exist already)', async () => {
    await admin.unsafe('create database second_shop');
    const url = inDatabase(testDb.adminUrl, 'second_shop');
    await migrateDatabase(url);
    const api = connect(inDatabase(testDb.roleUrls.api, 'second_shop'));
    expect((await api`select count(*)::int as n from users`)[0]).toEqual({ n: 0 });
    const indexer = connect(inDatabase(testDb.roleUrls.indexer, 'second_shop'));
    await expect(indexer`select * from public.users`).rejects.toThrow(DENIED);
  });

  test("Ponder's schemas from before the roles are handed to the indexer's role", async () => {
    await admin.unsafe('create database upgraded_shop');
    const url = inDatabase(testDb.adminUrl, 'upgraded_shop');
    // The database as it was: migrations 0000-0003, and Ponder's objects made by the owner.
    const folder = await mkdtemp(join(tmpdir(), 'roles-migrations-'));
    try {
      cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
      rmSync(join(folder, '0004_roles.sql'));
      const journalFile = join(folder, 'meta/_journal.json');
      const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
      journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < '0004');
      writeFileSync(journalFile, JSON.stringify(journal));
      const owner = connect(url);
      await migrate(drizzle({ client: owner }), { migrationsFolder: folder });
      await owner.unsafe(`
        create schema indexer;
        create type indexer.kind as enum ('a', 'b');
        create table indexer.transfer (id serial primary key, kind indexer.kind);
        create sequence indexer.operation_id;
        create view indexer.recent as select * from indexer.transfer;
        create function indexer.notify() returns trigger language plpgsql as 'begin return new; end';
        create schema ponder_sync;
        create table ponder_sync.blocks (number bigint primary key)`);
      expect(await pendingMigrations(url)).toEqual([
        '0004_roles',
        '0005_rate_limits',
        '0006_state_checks',
        '0007_integrators',
        '0008_receipts',
        '0009_grants',
        '0010_order_tax',
        '0011_merchant_ops',
        '0012_refunds_and_stock',
        '0013_stock_holds',
        '0014_analytics',
        '0015_buyer_tokens_and_totp',
        '0016_indexer_watch_feed',
        '0017_indexer_feed_check',
        '0018_refund_claims_per_refund',
        '0019_analyst_limits',
        '0020_leg_cancellation',
        '0021_store_slugs',
        '0022_retention_cutoff',
        '0023_webhook_endpoints',
        '0024_x402_digital_products',
        '0025_universal_orders_as_rows',
        '0026_checkout_session_submitted',
        '0027_payment_exception',
        '0028_daily_volume_orders_paid',
        '0029_new_store_no_tax',
        '0030_order_reversal_and_shortfall_columns',
        '0031_audit_log',
        '0032_invoices_and_erasure',
        '0033_digital_files',
        '0034_webhook_failing_since',
        '0035_discount_codes',
        '0036_payment_state_apart_from_exception',
        '0037_tax_shipping_zones',
        '0038_store_members',
        '0039_checkout_session_discount',
        '0040_drop_forwarding_completed',
        '0041_signed_transactions',
      ]);
      await migrateDatabase(url);
      expect(await pendingMigrations(url)).toEqual([]);
      const owners = await owner<{ name: string; owner: string }[]>`
        select n.nspname || '.' || c.relname as name, pg_get_userbyid(c.relowner) as owner
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('indexer', 'ponder_sync')
        union all select p.proname, pg_get_userbyid(p.proowner) from pg_proc p
        where p.pronamespace = 'indexer'::regnamespace
        union all select t.typname, pg_get_userbyid(t.typowner) from pg_type t
        where t.typnamespace = 'indexer'::regnamespace and t.typtype = 'e'
        union all select nspname, pg_get_userbyid(nspowner) from pg_namespace
        where nspname in ('indexer', 'ponder_sync')`;
      expect(owners.length).toBeGreaterThan(8);
      expect(owners.filter((o) => o.owner !== DATABASE_ROLES.indexer)).toEqual([]);
      const indexer = connect(inDatabase(testDb.roleUrls.indexer, 'upgraded_shop'));
      await indexer.unsafe("insert into indexer.transfer (kind) values ('a')");
      await indexer.unsafe('drop table ponder_sync.blocks');
      const api = connect(inDatabase(testDb.roleUrls.api, 'upgraded_shop'));
      expect((await api`select count(*)::int as n from indexer.recent`)[0]).toEqual({ n: 1 });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  test('the API and the worker only check the migrations, and say which are missing', async () => {
    await migrateOrCheckDatabase({ databaseUrl: testDb.roleUrls.api });
    await migrateOrCheckDatabase({ databaseUrl: testDb.roleUrls.worker });
    await admin.unsafe('create database empty_shop');
    const empty = inDatabase(testDb.adminUrl, 'empty_shop');
    const check = migrateOrCheckDatabase({ databaseUrl: empty });
    await expect(check).rejects.toBeInstanceOf(ConfigError);
    await expect(check).rejects.toThrow(
      /lacks 42 migration\(s\) \(0000_init, .*0041_signed_transactions\)/,
    );
    await migrateOrCheckDatabase({ databaseUrl: empty, migrationDatabaseUrl: empty });
    expect(await pendingMigrations(empty)).toEqual([]);
  });
});

describe("a deployment's migrate step", () => {
  test('an owner that is not a superuser (a managed Postgres) migrates and opens the logins', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'roles-managed-'));
    const pg = await startEmbeddedPostgres({
      dataDir: join(dataDir, 'postgres'),
      port: await freePort(),
      ephemeral: true,
    });
    try {
      const superuser = connect(pg.url);
      await superuser.unsafe(
        "create role shop_owner login password 'owner-pw' createrole createdb",
      );
      await superuser.unsafe('create database shop owner shop_owner');
      const shop = (user: string, password: string) =>
        inDatabase(databaseUrlAs(pg.url, user, password), 'shop');
      // What docker-compose.yml's `migrate` service runs.
      const step = Bun.spawn(
        [process.execPath, new URL('../src/db/client.ts', import.meta.url).pathname],
        {
          env: {
            PATH: process.env.PATH ?? '',
            MIGRATION_DATABASE_URL: shop('shop_owner', 'owner-pw'),
            API_DATABASE_PASSWORD: 'api-pw',
            WORKER_DATABASE_PASSWORD: 'worker-pw',
            INDEXER_DATABASE_PASSWORD: "indexer 'pw'",
          },
          stdout: 'pipe',
          stderr: 'pipe',
        },
      );
      const [code, out, err] = await Promise.all([
        step.exited,
        new Response(step.stdout).text(),
        new Response(step.stderr).text(),
      ]);
      expect(code, err).toBe(0);
      expect(out).toContain('logins set for api, worker, indexer');
      const api = connect(shop(DATABASE_ROLES.api, 'api-pw'));
      expect((await api`select count(*)::int as n from users`)[0]).toEqual({ n: 0 });
      const indexer = connect(shop(DATABASE_ROLES.indexer, "indexer 'pw'"));
      await indexer.unsafe('create schema indexer; create table indexer.transfer (id text)');
      expect((await api`select count(*)::int as n from indexer.transfer`)[0]).toEqual({ n: 0 });
      await expect(indexer`select * from public.users`).rejects.toThrow(DENIED);
      // The analyst got no password: it cannot log in.
      await expect(connect(shop(DATABASE_ROLES.analyst, ''))`select 1`).rejects.toThrow();
      await Promise.all(clients.map((sql) => sql.end({ timeout: 5 })));
    } finally {
      await pg.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('serviceEnvironments', () => {
  test("on a real chain (keys from the shell) the API still inherits none of the worker's secrets", () => {
    const urls = { api: 'postgres://a', worker: 'postgres://w', indexer: 'i', analyst: 'x' };
    const { api, worker } = serviceEnvironments({
      env: {
        RPC_URL: 'https://base.example',
        WS_URL: '',
        CHAIN_ID: '8453',
        USDC_START_BLOCK: '1',
        LOCAL_MODE: 'false',
        DATABASE_URL: urls.api,
        INDEXER_URL: 'http://indexer:42069',
      },
      databaseUrls: urls,
    });
    // `undefined` removes a variable from what the child inherits; absent leaves it to the shell.
    for (const name of ['PAYMENT_MNEMONIC', 'RELAYER_PRIVATE_KEY', 'WEBHOOK_SIGNING_KEY']) {
      expect(name in api && api[name] === undefined, name).toBe(true);
      expect(name in worker, name).toBe(false);
    }
    expect('TREASURY_ADDRESS' in api || 'PAYMENT_XPUB' in api).toBe(false);
    expect(api.MIGRATION_DATABASE_URL === undefined && 'MIGRATION_DATABASE_URL' in api).toBe(true);
    expect([api.DATABASE_URL, worker.DATABASE_URL]).toEqual([urls.api, urls.worker]);
  });
});

describe('the processes of a local stack', () => {
  let stack: TestStack;
  const running: Service[] = [];
  const logs: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(running.map((service) => service.stop()));
    await Promise.all(clients.map((sql) => sql.end({ timeout: 5 })));
    await stack?.stop();
  }, 60_000);

  test('the API process, started as the dev command does, holds no secret and answers as its role', async () => {
    const env = serviceEnvironments(stack);
    const port = await freePort();
    const api = startService(
      'api',
      process.execPath,
      [new URL('../src/index.ts', import.meta.url).pathname],
      { env: { ...env.api, PORT: String(port) }, log: (line) => logs.push(`api: ${line}`) },
    );
    running.push(api);
    const base = `http://127.0.0.1:${port}`;
    let health: { ok?: boolean } | undefined;
    for (let i = 0; i < 600 && !health?.ok; i++) {
      health = await fetch(`${base}/api/health`)
        .then((r) => r.json() as Promise<{ ok: boolean }>)
        .catch(() => undefined);
      if (!health?.ok) await Bun.sleep(100);
    }
    expect(health?.ok, logs.join('\n')).toBe(true);
    // Local mode seeds the demo store at start: the API wrote users, stores and products as its role.
    const store = await fetch(`${base}/api/stores/demo-store`);
    expect(store.status).toBe(200);

    const environ = readFileSync(`/proc/${api.pid}/environ`, 'utf8').split('\0').filter(Boolean);
    const vars = new Map(
      environ.map((entry) => [
        entry.slice(0, entry.indexOf('=')),
        entry.slice(entry.indexOf('=') + 1),
      ]),
    );
    for (const name of [
      'PAYMENT_MNEMONIC',
      'RELAYER_PRIVATE_KEY',
      'WEBHOOK_SIGNING_KEY',
      'MIGRATION_DATABASE_URL',
    ]) {
      expect(vars.has(name), name).toBe(false);
    }
    const { keys } = await loadOrCreateLocalKeys(stack.dataDir);
    const { passwords } = await loadOrCreateRolePasswords(stack.dataDir);
    const secrets = [
      keys.paymentMnemonic,
      keys.relayerPrivateKey,
      keys.treasuryPrivateKey,
      keys.webhookSigningKey,
      stack.adminDatabaseUrl,
      passwords.worker,
      passwords.indexer,
      passwords.analyst,
    ];
    for (const [name, value] of vars) {
      expect(value, name).not.toMatch(/^[a-z]+( [a-z]+){11,23}$/); // a BIP-39 mnemonic
      expect(value, name).not.toMatch(/0x[0-9a-fA-F]{64}(?![0-9a-fA-F])/); // a private key
      expect(value, name).not.toMatch(/whsk_/);
      for (const secret of secrets) expect(value.includes(secret), name).toBe(false);
    }
    expect(new URL(vars.get('DATABASE_URL') ?? '').username).toBe(DATABASE_ROLES.api);
    expect(vars.get('PAYMENT_XPUB')).toBe(keys.paymentXpub);

    // The payment status reads the indexer's tables with the same role. Note: the local chain's
    // transfers so far (funding the test accounts) are not ours, so none is kept.
    const sql = connect(stack.databaseUrls.api);
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from indexer.transfer`;
    expect(row?.n).toBe(0);
    await expect(sql`select * from ponder_sync.blocks limit 1`).resolves.toBeDefined();
  }, 90_000);

  test('the worker process runs as its role with the secrets, the indexer as its own', async () => {
    const env = serviceEnvironments(stack);
    expect(env.worker.PAYMENT_MNEMONIC).toBe(stack.env.PAYMENT_MNEMONIC);
    const worker = startService(
      'worker',
      process.execPath,
      [new URL('../src/worker.ts', import.meta.url).pathname],
      { env: env.worker, log: (line) => logs.push(`worker: ${line}`) },
    );
    running.push(worker);
    for (let i = 0; i < 600 && !logs.some((l) => l.startsWith('worker: worker: ready')); i++) {
      await Bun.sleep(100);
    }
    expect(logs.filter((l) => l.startsWith('worker:')).join('\n')).toContain('worker: ready');
    expect(new URL(env.worker.DATABASE_URL ?? '').username).toBe(DATABASE_ROLES.worker);

    const admin = connect(stack.adminDatabaseUrl);
    const owners = await admin<{ owner: string }[]>`
      select distinct pg_get_userbyid(nspowner) as owner from pg_namespace
      where nspname in ('indexer', 'ponder_sync')`;
    expect(owners.map((o) => o.owner)).toEqual([DATABASE_ROLES.indexer]);
    const sessions = await admin<{ usename: string }[]>`
      select distinct usename from pg_stat_activity where application_name like 'indexer%'
        or application_name like 'ponder%'`;
    expect(sessions.map((s) => s.usename)).toEqual([DATABASE_ROLES.indexer]);
  }, 90_000);
});
