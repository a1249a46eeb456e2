// A store's customers, read from its orders: one per email address (lower-cased), newest last order
// first, in cursor pages. Paid means the statuses the dashboard's revenue counts (REVENUE_STATUSES).

import { REVENUE_STATUSES } from '@store/shared';
import {
  CUSTOMER_LIST_LIMITS,
  type Customer,
  type CustomerListQuery,
} from '@store/shared/customers';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import type { Caller } from '../team/access.ts';

/** Text of a cursor that is not one of ours. */
const INVALID_CURSOR = 'cursor is not valid; start again from the first page';

/** An opaque cursor: the last row's last order time (Postgres text) and email. */
function encodeCursor(lastAt: string, email: string): string {
  return Buffer.from(`${lastAt}|${email}`).toString('base64url');
}

/** The position a cursor names; 422 for anything that is not a cursor of ours. */
function decodeCursor(cursor: string): { at: string; email: string } {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const split = text.indexOf('|');
  const at = text.slice(0, split);
  const email = text.slice(split + 1);
  if (
    split < 0 ||
    !email ||
    !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/.test(at)
  )
    throw new AppError('validation_failed', INVALID_CURSOR);
  return { at, email };
}

/** `text` with LIKE's wildcards escaped, for a `like … escape '\'` pattern. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

interface CustomerRow {
  email: string;
  name: string;
  orders: number;
  paid_orders: number;
  total_paid: string;
  first_at: string;
  last_at: string;
  cursor_at: string;
}

/** One page of a store's customers and the cursor of the next (null on the last page). */
export async function listStoreCustomers(
  db: Database,
  caller: Caller,
  storeId: string,
  query: CustomerListQuery,
): Promise<{ customers: Customer[]; nextCursor: string | null }> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'read');
  const limit = query.limit ?? CUSTOMER_LIST_LIMITS.defaultPage;
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const sql = db.$client;
  const paidStatuses = REVENUE_STATUSES.join(',');
  const pattern = query.q ? `%${likeEscaped(query.q)}%` : null;
  // Note: this pool's parameters are text; the casts say what they are. The search keeps every
  // order of a matching customer (it is a HAVING), so the counts stay whole.
  const rows = await sql<CustomerRow[]>`
    select c.email, c.name, c.orders, c.paid_orders, c.total_paid,
      to_char(c.first_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as first_at,
      to_char(c.last_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_at,
      c.last_at::text as cursor_at
    from (
      select lower(o.customer_email) as email,
        (array_agg(o.name order by o.created_at desc, o.id desc))[1] as name,
        count(*)::int as orders,
        (count(*) filter (where o.status = any(string_to_array(${paidStatuses}::text, ','))))::int as paid_orders,
        coalesce(sum(o.total_usdc) filter (where o.status = any(string_to_array(${paidStatuses}::text, ','))), 0)::numeric(12, 2)::text as total_paid,
        min(o.created_at) as first_at,
        max(o.created_at) as last_at
      from (
        select x.id, x.customer_email, x.status, x.total_usdc, x.created_at,
          trim(coalesce(x.shipping_address->>'firstName', '') || ' ' || coalesce(x.shipping_address->>'lastName', '')) as name
        from orders x
        where x.store_id = ${store.id}::uuid and x.customer_email <> ''
      ) o
      group by lower(o.customer_email)
      having ${pattern}::text is null
        or bool_or(lower(o.customer_email) like lower(${pattern}::text) escape '\\' or o.name ilike ${pattern}::text escape '\\')
    ) c
    where ${after ? after.at : null}::timestamptz is null
      or (c.last_at, c.email) < (${after ? after.at : null}::timestamptz, ${after ? after.email : null}::text)
    order by c.last_at desc, c.email desc
    limit ${limit + 1}`;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    customers: page.map((row) => ({
      email: row.email,
      name: row.name,
      orders: row.orders,
      paidOrders: row.paid_orders,
      totalPaidUsdc: row.total_paid,
      firstOrderAt: row.first_at,
      lastOrderAt: row.last_at,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.cursor_at, last.email) : null,
  };
}
