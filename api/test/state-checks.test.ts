// Stored states are CHECK constraints built from the shared constants (migration 0006): each
// constraint lists exactly the shared values, accepts every one of them and refuses any other;
// a database holding some other value still migrates, leaving that constraint NOT VALID.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FORWARDING_LEG_STATUSES,
  FORWARDING_STATUSES,
  ORDER_SOURCES,
  ORDER_STATUSES,
  PAYMENT_EXCEPTIONS,
  PAYMENT_STATES,
  WEBHOOK_DELIVERY_STATUSES,
} from '@store/shared';
import { getTableConfig, PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import { MIGRATIONS_FOLDER } from '../src/db/client.ts';
import {
  forwardingTransfers,
  oneOf,
  orders,
  paymentWallets,
  webhookDeliveries,
} from '../src/db/schema.ts';
import { STACK_TIMEOUT_MS, startTestDatabase, type TestDatabase } from './support/database.ts';

/** Every state constraint: its table, column and the shared list it must hold. */
const CHECKS = [
  { table: orders, name: 'orders_status_check', column: 'status', values: ORDER_STATUSES },
  { table: orders, name: 'orders_source_check', column: 'source', values: ORDER_SOURCES },
  {
    table: paymentWallets,
    name: 'payment_wallets_status_check',
    column: 'status',
    values: PAYMENT_STATES,
  },
  {
    table: paymentWallets,
    name: 'payment_wallets_exception_check',
    column: 'exception',
    values: PAYMENT_EXCEPTIONS,
  },
  {
    table: paymentWallets,
    name: 'payment_wallets_forwarding_status_check',
    column: 'forwarding_status',
    values: FORWARDING_STATUSES,
  },
  {
    table: forwardingTransfers,
    name: 'forwarding_transfers_status_check',
    column: 'status',
    values: FORWARDING_LEG_STATUSES,
  },
  {
    table: webhookDeliveries,
    name: 'webhook_deliveries_status_check',
    column: 'status',
    values: WEBHOOK_DELIVERY_STATUSES,
  },
] as const;

/**
 * Checks of these tables that are no plain list of states: which columns go together, and the
 * status a reversed order had (null, or one of the order statuses, built by the same oneOf).
 */
const OTHER_CHECKS = ['orders_source_store_check', 'orders_status_before_reversal_check'];
/** The checks of migrations 0006 and 0020 (orders_source_check came with the column, in 0025). */
const CHECKS_OF_0006_0020 = CHECKS.filter(
  (c) => c.name !== 'orders_source_check' && c.name !== 'payment_wallets_exception_check',
);

/**
 * The migrations that write the state checks: 0006 (the first ones) and 0020 (the leg statuses
 * and the forwarding status of a payment a reorg took away).
 */
const STATE_CHECKS_SQL = ['0006_state_checks.sql', '0020_leg_cancellation.sql']
  .map((file) => readFileSync(join(MIGRATIONS_FOLDER, file), 'utf8'))
  .join('\n--> statement-breakpoint\n');

/** The quoted values of an `in (...)` list, in order. */
const listed = (text: string) => [...text.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]);

describe('state constraints in the schema', () => {
  test('each lists exactly the shared constants', () => {
    const dialect = new PgDialect();
    for (const check of CHECKS) {
      const config = getTableConfig(check.table as PgTable);
      const found = config.checks.find((c) => c.name === check.name);
      expect(found, check.name).toBeDefined();
      const text = dialect.sqlToQuery(found?.value ?? oneOf('x', [])).sql;
      expect(text.startsWith(`"${check.column}" in (`), check.name).toBe(true);
      expect(listed(text), check.name).toEqual([...check.values]);
    }
    // No state constraint of these tables is left out of the list above.
    const names = [orders, paymentWallets, forwardingTransfers, webhookDeliveries].flatMap((t) =>
      getTableConfig(t as PgTable).checks.map((c) => c.name),
    );
    expect(names.sort()).toEqual([...CHECKS.map((c) => c.name), ...OTHER_CHECKS].sort());
    const before = getTableConfig(orders as PgTable).checks.find(
      (c) => c.name === 'orders_status_before_reversal_check',
    );
    expect(listed(dialect.sqlToQuery(before?.value ?? oneOf('x', [])).sql)).toEqual([
      ...ORDER_STATUSES,
    ]);
  });

  test('values are quoted as SQL literals', () => {
    const text = new PgDialect().sqlToQuery(oneOf('status', ["it's", 'b'])).sql;
    expect(text).toBe(`"status" in ('it''s', 'b')`);
  });
});

describe('state constraints in the database', () => {
  let testDb: TestDatabase;
  let sql: postgres.Sql;

  beforeAll(async () => {
    testDb = await startTestDatabase();
    sql = postgres(testDb.adminUrl, { max: 1, onnotice: () => {} });
  }, STACK_TIMEOUT_MS);

  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await testDb?.stop();
  }, STACK_TIMEOUT_MS);

  /** The constraint as Postgres holds it: its values and whether it was validated. */
  async function constraint(name: string) {
    const [row] = await sql<{ def: string; validated: boolean }[]>`
      select pg_get_constraintdef(oid) as def, convalidated as validated
      from pg_constraint where conname = ${name}`;
    return row;
  }

  let derivation = 0;
  let storeId: string | undefined;
  const insertOrder = async (status = 'pending', source = 'storefront') => {
    storeId ??= (
      await sql<{ id: string }[]>`insert into stores (name, slug, owner_id)
        values ('State Shop', 'state-shop', 'owner') returning id`
    )[0]?.id;
    // Note: a link's order names its payee, and only an unsigned link's has no store.
    const link = source === 'signed_link' || source === 'unsigned_link';
    const [row] = await sql<{ id: string }[]>`
      insert into orders (store_id, source, payee_address, customer_email, items, total_usdc, status)
      values (${source === 'unsigned_link' ? null : (storeId ?? null)}, ${source},
        ${link ? '0xpayee' : null}, 'a@example.com', '[]', '1.00', ${status}) returning id`;
    return row?.id as string;
  };
  const insertWallet = async (
    fields: { status?: string; exception?: string; forwardingStatus?: string } = {},
  ) => {
    derivation += 1;
    const [row] = await sql<{ id: string }[]>`
      insert into payment_wallets (order_id, wallet_address, derivation_path, derivation_index,
        expected_amount_usdc, store_payment_address, payment_chain, status, exception,
        forwarding_status)
      values (${await insertOrder()}, ${`0xwallet${derivation}`}, ${`m/0/${derivation}`},
        ${derivation}, '1.00', '0xstore', 'base', ${fields.status ?? 'waiting'},
        ${fields.exception ?? 'none'}, ${fields.forwardingStatus ?? 'none'})
      returning id`;
    return row?.id as string;
  };
  let legWallet: string;
  let round = 0;
  const insertLeg = async (status: string) => {
    legWallet ??= await insertWallet();
    round += 1;
    await sql`
      insert into forwarding_transfers (wallet_id, round, leg, mode, from_address, to_address,
        value, status)
      values (${legWallet}, ${round}, 'merchant', 'eip3009', '0xfrom', '0xto', 1, ${status})`;
  };
  const insertDelivery = async (status: string) => {
    await sql`
      insert into webhook_deliveries (order_id, store_id, event_type, url, payload, retry_until,
        status)
      values (gen_random_uuid(), 'store', 'order.paid', 'https://example.com/hook', '{}',
        now() + interval '1 day', ${status})`;
  };
  const inserts: Record<string, (value: string) => Promise<unknown>> = {
    orders_status_check: (value) => insertOrder(value),
    orders_source_check: (value) => insertOrder('pending', value),
    payment_wallets_status_check: (value) => insertWallet({ status: value }),
    payment_wallets_exception_check: (value) => insertWallet({ exception: value }),
    payment_wallets_forwarding_status_check: (value) => insertWallet({ forwardingStatus: value }),
    forwarding_transfers_status_check: (value) => insertLeg(value),
    webhook_deliveries_status_check: (value) => insertDelivery(value),
  };

  test('the migration created and validated each, with exactly the shared values', async () => {
    for (const check of CHECKS) {
      const row = await constraint(check.name);
      expect(row, check.name).toBeDefined();
      expect(row?.validated, check.name).toBe(true);
      expect(listed(row?.def ?? ''), check.name).toEqual([...check.values]);
    }
  });

  test('every shared value is accepted', async () => {
    for (const check of CHECKS) {
      for (const value of check.values) await inserts[check.name]?.(value);
    }
  });

  test('an unknown status is refused with a check violation, for each column', async () => {
    for (const check of CHECKS) {
      const insert = inserts[check.name];
      if (!insert) throw new Error(`no insert for ${check.name}`);
      const error = await insert('bogus').then(
        () => undefined,
        (e: { code?: string; constraint_name?: string }) => e,
      );
      expect(error?.code, check.name).toBe('23514');
      expect(error?.constraint_name, check.name).toBe(check.name);
    }
    // An update to an unknown value is refused too (the forwarding status, as the worker writes it).
    const wallet = await insertWallet();
    const error = await sql`update payment_wallets set forwarding_status = 'paused'
      where id = ${wallet}`.then(
      () => undefined,
      (e: { code?: string }) => e,
    );
    expect(error?.code).toBe('23514');
  });

  test('a database holding an unknown value still migrates; that constraint stays NOT VALID', async () => {
    // The database as it was before migration 0006, with a status no code ever wrote.
    for (const check of CHECKS_OF_0006_0020) {
      await sql.unsafe(
        `alter table "${getTableConfig(check.table as PgTable).name}" drop constraint "${check.name}"`,
      );
    }
    await insertOrder('cancelled');

    // Note: migrations 0006 and 0020 themselves, run as the migrator runs them (one statement per
    // breakpoint), so other later migrations need not be undone first.
    for (const statement of STATE_CHECKS_SQL.split('--> statement-breakpoint')) {
      await sql.unsafe(statement);
    }

    expect((await constraint('orders_status_check'))?.validated).toBe(false);
    // The others validated; the unknown row stays until someone corrects it, new ones are refused.
    for (const check of CHECKS_OF_0006_0020.filter((c) => c.name !== 'orders_status_check')) {
      expect((await constraint(check.name))?.validated, check.name).toBe(true);
    }
    const error = await insertOrder('cancelled').then(
      () => undefined,
      (e: { code?: string }) => e,
    );
    expect(error?.code).toBe('23514');
    await sql`update orders set status = 'pending' where status = 'cancelled'`;
    await sql`alter table orders validate constraint orders_status_check`;
    expect((await constraint('orders_status_check'))?.validated).toBe(true);
  });
});
