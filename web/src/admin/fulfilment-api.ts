// The merchant's order calls beyond the basic list: a page of the searched and filtered list (its
// next cursor comes in the X-Next-Cursor header), every page of a filter for the CSV, marking an
// order shipped, and an order's webhooks and timeline. Answers are checked against their schemas.
import {
  type MarkShippedInput,
  type OrderActivity,
  OrderActivitySchema,
  type OrderListFilters,
  SHIPMENT_OUTCOMES,
  type Shipment,
  type ShipmentOutcome,
  ShipmentSchema,
} from '@store/shared';
import * as v from 'valibot';
import { ApiError, apiRequest, newIdempotencyKey } from '../lib/api.ts';
import { reportNetworkFailure, reportNetworkSuccess } from '../lib/connectivity.ts';
import { type MerchantOrder, MerchantOrderSchema } from './types.ts';

/** One page of the order list and the cursor of the next (null on the last page). */
export interface OrderPage {
  orders: MerchantOrder[];
  nextCursor: string | null;
}

/** Orders a page of the admin list holds. */
export const ORDERS_PAGE_SIZE = 50;
/** Most orders one CSV export reads (pages of 500). */
export const CSV_EXPORT_MAX = 20_000;

/** The query string of the list's filters (empty ones left out). */
export function orderListQuery(filters: OrderListFilters, extra: Record<string, string> = {}) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...extra }))
    if (value !== undefined && value !== '') query.set(key, String(value));
  return query;
}

/** GET /api/orders with search, filters and cursor: one page and the next page's cursor. */
export async function fetchOrderPage(
  filters: OrderListFilters,
  options: { cursor?: string | null; limit?: number } = {},
): Promise<OrderPage> {
  const query = orderListQuery(filters, {
    limit: String(options.limit ?? ORDERS_PAGE_SIZE),
    ...(options.cursor ? { cursor: options.cursor } : {}),
  });
  let response: Response;
  try {
    response = await fetch(`/api/orders?${query}`, {
      headers: { accept: 'application/json' },
      credentials: 'include',
    });
  } catch (error) {
    reportNetworkFailure();
    throw error;
  }
  reportNetworkSuccess();
  const body = (await response.json().catch(() => null)) as unknown;
  if (!response.ok) {
    const error = (body as { error?: { message?: string; code?: string } } | null)?.error;
    throw new ApiError(response.status, error?.message ?? response.statusText, error?.code);
  }
  return {
    orders: v.parse(v.array(MerchantOrderSchema), body),
    nextCursor: response.headers.get('x-next-cursor'),
  };
}

/** Every order of a filter (for the CSV), page after page, at most CSV_EXPORT_MAX. */
export async function fetchAllOrders(filters: OrderListFilters): Promise<MerchantOrder[]> {
  const all: MerchantOrder[] = [];
  let cursor: string | null = null;
  do {
    const page: OrderPage = await fetchOrderPage(filters, { cursor, limit: 500 });
    all.push(...page.orders);
    cursor = page.nextCursor;
  } while (cursor && all.length < CSV_EXPORT_MAX);
  return all;
}

const ShipmentResultSchema = v.object({
  order: MerchantOrderSchema,
  outcome: v.picklist(SHIPMENT_OUTCOMES),
  message: v.string(),
});

/** POST /api/orders/{id}/shipment: marks the order shipped (again: updates its tracking). */
export async function markShipped(
  orderId: string,
  input: MarkShippedInput,
  idempotencyKey = newIdempotencyKey(),
): Promise<{ order: MerchantOrder; outcome: ShipmentOutcome; message: string }> {
  const answer = await apiRequest(
    'POST',
    `/api/orders/${encodeURIComponent(orderId)}/shipment`,
    input,
    { idempotencyKey },
  );
  return v.parse(ShipmentResultSchema, answer);
}

/** GET /api/orders/{id}/activity: the order's webhook deliveries and timeline. */
export async function fetchOrderActivity(orderId: string): Promise<OrderActivity> {
  const answer = await apiRequest('GET', `/api/orders/${encodeURIComponent(orderId)}/activity`);
  return v.parse(OrderActivitySchema, answer);
}

/** The order's shipment, when it has a valid one (an older cached order has none). */
export function shipmentOf(order: MerchantOrder): Shipment | null {
  const result = v.safeParse(ShipmentSchema, (order as { shipment?: unknown }).shipment);
  return result.success ? result.output : null;
}
