// The accounting export of one store: its money movements (each payment in, each forwarding leg
// out, each refund the merchant sent from the payout wallet) over a range of UTC days, read from the analytics views through a cursor and streamed as
// CSV or as a JSON array, so a year of them never sits in memory.
import { orderTaxIncluded } from '@store/shared';
import {
  MONEY_MOVEMENTS_CSV_COLUMNS,
  type MoneyMovement,
  type MoneyMovementsQuery,
  moneyMovementFields,
  resolveRange,
} from '@store/shared/analytics';
import type { Database } from '../../db/client.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import type { Caller } from '../team/access.ts';

/** Rows fetched from Postgres at a time. */
const CURSOR_ROWS = 500;

interface MovementRow {
  time: string;
  type: MoneyMovement['type'];
  direction: MoneyMovement['direction'];
  order_id: string;
  external_order_id: string | null;
  tx_hash: string;
  log_index: number | null;
  from: string;
  to: string;
  amount_usdc: string;
  amount_base_units: string;
  classification: MoneyMovement['classification'];
  discount_code: string | null;
  discount_usdc: string | null;
  subtotal_usdc: string | null;
  shipping_usdc: string | null;
  tax_usdc: string | null;
  total_usdc: string | null;
}

const toMovement = (row: MovementRow): MoneyMovement => ({
  time: row.time,
  type: row.type,
  direction: row.direction,
  orderId: row.order_id,
  externalOrderId: row.external_order_id,
  txHash: row.tx_hash,
  logIndex: row.log_index,
  from: row.from,
  to: row.to,
  amountUsdc: row.amount_usdc,
  amountBaseUnits: row.amount_base_units,
  classification: row.classification,
  discountCode: row.discount_code,
  discountUsdc: row.discount_usdc,
  shippingUsdc: row.shipping_usdc,
  taxUsdc: row.tax_usdc,
  taxIncluded:
    row.tax_usdc === null || row.subtotal_usdc === null || row.shipping_usdc === null
      ? null
      : orderTaxIncluded({
          subtotalUsdc: row.subtotal_usdc,
          discountUsdc: row.discount_usdc,
          shippingUsdc: row.shipping_usdc,
          taxUsdc: row.tax_usdc,
          totalUsdc: row.total_usdc ?? '0',
        }),
});

/** One CSV field (RFC 4180), a leading =, +, -, @ neutralised: external order ids are strangers'. */
export function csvField(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n']/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The export's name: store slug and range (`demo-store-2026-01-01-2026-01-31`). */
const fileName = (slug: string, range: { from: string; to: string }) =>
  `${slug}-money-movements-${range.from}-to-${range.to}`;

/**
 * The store's movements in the range, oldest first, as an async sequence of batches. Note: the
 * store's ownership is checked before (a 404 is an answer, not a broken stream).
 */
function movementBatches(db: Database, storeId: string, range: { from: string; to: string }) {
  const sql = db.$client;
  // Note: this pool's parameters are text; the casts say what they are.
  const start = `${range.from}T00:00:00Z`;
  const end = new Date(Date.parse(`${range.to}T00:00:00Z`) + 86_400_000).toISOString();
  return sql<MovementRow[]>`
    select to_char(m.time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as time, m.type,
      m.direction, m.order_id, m.external_order_id, m.tx_hash, m.log_index, m."from", m."to",
      m.amount_usdc, m.amount_base_units, m.classification,
      o.discount_code, o.discount_usdc::text as discount_usdc,
      o.subtotal_usdc::text as subtotal_usdc, o.shipping_usdc::text as shipping_usdc,
      o.tax_usdc::text as tax_usdc, o.total_usdc::text as total_usdc
    from (
      select p.block_time as time, 'payment' as type, 'in' as direction, p.order_id,
        p.external_order_id, p.tx_hash, p.log_index, p.payer as "from", p.deposit_address as "to",
        p.amount_usdc::text as amount_usdc, p.amount_base_units::text as amount_base_units,
        p.classification, p.block_number as block, p.log_index as position
      from analytics.payments p
      where p.store_id = ${storeId}::uuid and p.block_time >= ${start}::timestamptz and p.block_time < ${end}::timestamptz
      union all
      select s.mined_at, s.leg, 'out', s.order_id, s.external_order_id, s.tx_hash, null,
        s.from_address, s.to_address, s.amount_usdc::text, s.amount_base_units::text, null,
        s.block_number, null
      from analytics.settlements s
      where s.store_id = ${storeId}::uuid and s.mined_at >= ${start}::timestamptz and s.mined_at < ${end}::timestamptz
      union all
      select r.mined_at, 'merchant_refund', 'out', r.order_id, r.external_order_id, r.tx_hash, null,
        r.from_address, r.to_address, r.amount_usdc::text, r.amount_base_units::text, null,
        r.block_number, null
      from analytics.merchant_refunds r
      where r.store_id = ${storeId}::uuid and r.mined_at >= ${start}::timestamptz and r.mined_at < ${end}::timestamptz
    ) m
    -- Note: a payment row carries its order's discount, shipping and tax (a leg's row none: they
    -- are counted once).
    left join orders o on m.type = 'payment' and o.id = m.order_id
    order by m.time, m.block, m.position nulls last, m.order_id, m.type`.cursor(CURSOR_ROWS);
}

/** A stream of text chunks from the batches; the cursor is closed when the client goes away. */
export function textStream<Row>(
  batches: AsyncIterable<Row[]>,
  head: string,
  each: (row: Row, index: number) => string,
  tail: string,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  let index = 0;
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(head));
      }
      const next = await iterator.next();
      if (next.done) {
        controller.enqueue(encoder.encode(tail));
        controller.close();
        return;
      }
      const text = next.value.map((row) => each(row, index++)).join('');
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** A streamed CSV attachment (RFC 4180, CRLF): the header, then each batch's rows as read. */
export function csvAttachment<Row>(
  batches: AsyncIterable<Row[]>,
  columns: readonly string[],
  fields: (row: Row) => readonly (string | number | null)[],
  fileName: string,
): Response {
  const line = (values: readonly (string | number | null)[]) =>
    `${values.map(csvField).join(',')}\r\n`;
  const body = textStream(batches, line(columns), (row) => line(fields(row)), '');
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'no-store',
    },
  });
}

/** The store's movements as a streamed CSV file (RFC 4180, CRLF). */
export async function moneyMovementsCsv(
  db: Database,
  caller: Caller,
  storeId: string,
  query: MoneyMovementsQuery,
): Promise<Response> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'read');
  const range = resolveRange(query);
  return csvAttachment(
    movementBatches(db, store.id, range),
    MONEY_MOVEMENTS_CSV_COLUMNS,
    (row) => moneyMovementFields(toMovement(row)),
    `${fileName(store.slug, range)}.csv`,
  );
}

/** The store's movements as a streamed JSON array. */
export async function moneyMovementsJson(
  db: Database,
  caller: Caller,
  storeId: string,
  query: MoneyMovementsQuery,
): Promise<Response> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'read');
  const range = resolveRange(query);
  const body = textStream(
    movementBatches(db, store.id, range),
    '[',
    (row, i) => `${i === 0 ? '' : ','}${JSON.stringify(toMovement(row))}`,
    ']',
  );
  return new Response(body, {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-range-from': range.from,
      'x-range-to': range.to,
      'cache-control': 'no-store',
    },
  });
}
