// Queries, transactions and their savepoints run as named prepared statements of their connection
// (src/db/prepared.ts): parsed once per connection, not at every call.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq, sql } from 'drizzle-orm';
import { createDatabase } from '../src/db/client.ts';
import { stores } from '../src/db/schema.ts';
import { STACK_TIMEOUT_MS, startTestDatabase, type TestDatabase } from './support/database.ts';

let testDb: TestDatabase;
let one: ReturnType<typeof createDatabase>;

beforeAll(async () => {
  testDb = await startTestDatabase();
  // Note: one connection, so every statement below is on the connection that is asked.
  one = createDatabase(testDb.url, { max: 1 });
}, STACK_TIMEOUT_MS);

afterAll(async () => {
  await one?.close();
  await testDb?.stop();
}, STACK_TIMEOUT_MS);

/** The statements the connection holds prepared, with how often each ran as such. */
const preparedOn = (db: ReturnType<typeof createDatabase>['db']) =>
  db.execute<{ statement: string; calls: string }>(
    sql`select statement, (generic_plans + custom_plans)::text as calls
      from pg_prepared_statements where not from_sql`,
  );

describe('prepared statements', () => {
  test('a query run three times is parsed once and planned from then on as prepared', async () => {
    const { db } = one;
    for (let i = 0; i < 3; i++)
      await db
        .select({ id: stores.id })
        .from(stores)
        .where(eq(stores.slug, `shop-${i}`));
    const held = (await preparedOn(db)).filter((row) => row.statement.includes('"slug" = $1'));
    expect(held).toHaveLength(1);
    expect(Number(held[0]?.calls)).toBe(3);
  });

  test('in a transaction and a savepoint too', async () => {
    const { db } = one;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select 1 + ${1}::int as in_transaction`);
      await tx.transaction(async (inner) => {
        await inner.execute(sql`select 2 + ${2}::int as in_savepoint`);
      });
    });
    const statements = (await preparedOn(db)).map((row) => row.statement);
    expect(statements.some((s) => s.includes('in_transaction'))).toBe(true);
    expect(statements.some((s) => s.includes('in_savepoint'))).toBe(true);
  });
});
