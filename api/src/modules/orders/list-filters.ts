// The order list's search, filters and cursor as SQL: free text over the email, the order id (or
// its short number) and the external order id; status, store, payment exception and days (UTC).
import type { OrderListFilters } from '@store/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import { orders, paymentWallets } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';

/** Text of a cursor that is not one of ours. */
export const INVALID_CURSOR = 'cursor is not valid; start again from the first page';

/** An opaque cursor: the last row's creation time (Postgres text, microseconds) and id. */
export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(`${createdAt}|${id}`).toString('base64url');
}

/** The position a cursor names; 422 for anything that is not a cursor of ours. */
export function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (
    rest.length > 0 ||
    !at ||
    !id ||
    !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/.test(at) ||
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)
  )
    throw new AppError('validation_failed', INVALID_CURSOR);
  return { at, id };
}

/** `text` with LIKE's wildcards escaped, for a `like … escape '\'` pattern. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Orders matching the search text: an email, an order id or number, an external order id. */
function searchCondition(q: string): SQL {
  const text = q.trim();
  if (UUID.test(text)) return eq(orders.id, text.toLowerCase());
  const contains = `%${likeEscaped(text)}%`;
  const conditions = [
    sql`${orders.customerEmail} ilike ${contains}`,
    sql`${orders.metadata}->>'externalOrderId' ilike ${contains}`,
  ];
  // Note: an order number is the id's last 8 characters (`#A1B2C3D4`), shown upper-case.
  const number = text.replace(/^#/, '').toLowerCase();
  if (/^[0-9a-f-]{4,36}$/.test(number))
    conditions.push(sql`${orders.id}::text like ${`%${number}`}`);
  return sql`(${sql.join(conditions, sql` or `)})`;
}

/** The wallet of the order, for a payment-exception filter. */
const walletWhere = (condition: SQL) =>
  sql`exists (select 1 from ${paymentWallets} w where w.order_id = ${orders}.id and ${condition})`;

/** Orders with the given payment exception, as stored with the payment. */
function exceptionCondition(exception: NonNullable<OrderListFilters['exception']>): SQL {
  switch (exception) {
    case 'underpaid':
      // Note: an underpaid order its merchant accepted as paid was underpaid too.
      return walletWhere(sql`w.exception in ('underpaid', 'accepted_underpaid')`);
    case 'overpaid':
    case 'paid_late':
      return walletWhere(sql`w.exception = ${exception}`);
    case 'oversold':
      return sql`${orders.stockShortfall} is not null`;
  }
}

/** The SQL conditions of the list's search and filters (beyond ownership and the cursor). */
export function orderListConditions(filters: OrderListFilters): (SQL | undefined)[] {
  const dayAfter = (day: string) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 60 * 60 * 1000).toISOString();
  return [
    filters.q ? searchCondition(filters.q) : undefined,
    filters.storeId === undefined ? undefined : eq(orders.storeId, filters.storeId.toLowerCase()),
    filters.status === undefined ? undefined : eq(orders.status, filters.status),
    filters.customerEmail === undefined
      ? undefined
      : sql`lower(${orders.customerEmail}) = ${filters.customerEmail.toLowerCase()}`,
    filters.exception === undefined ? undefined : exceptionCondition(filters.exception),
    filters.from === undefined
      ? undefined
      : sql`${orders.createdAt} >= ${`${filters.from}T00:00:00Z`}::timestamptz`,
    filters.to === undefined
      ? undefined
      : sql`${orders.createdAt} < ${dayAfter(filters.to)}::timestamptz`,
  ];
}
