// Request schemas, the handlers' order view and the messages of the order routes.
import {
  CreateOrderSchema,
  ORDER_LIST_LIMITS,
  ORDER_STATUSES,
  type Order,
  OrderListFiltersSchema,
  ShippingMethodSchema,
  ZERO_TOTAL_MESSAGE,
} from '@store/shared';
import * as v from 'valibot';
import { UpdatedAtSchema } from '../../http/versions.ts';

/** Body of POST /api/orders: the checkout's body plus an optional shipping method. */
export const CreateOrderBody = v.object({
  ...CreateOrderSchema.entries,
  // Note: new orders are always pending whatever the client says; only payment makes them paid.
  status: v.optional(v.unknown()),
  shippingMethod: v.optional(ShippingMethodSchema),
});
/** A validated order body. */
export type CreateOrderBody = v.InferOutput<typeof CreateOrderBody>;

const STATUS_MESSAGE = `status must be one of ${ORDER_STATUSES.join(', ')}`;
/** Largest page of GET /api/orders. */
export const MAX_ORDERS_PAGE = ORDER_LIST_LIMITS.maxPage;
/** Header of GET /api/orders naming the cursor of the next page (absent on the last page). */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';
/** Longest cursor accepted. */
const MAX_CURSOR_LENGTH = 200;

/**
 * Query of GET /api/orders: search, filters, a page size (default 100, at most 500) and the
 * cursor of the page after (from the previous page's `X-Next-Cursor`).
 */
export const ListOrdersQuery = v.object({
  ...OrderListFiltersSchema.entries,
  cursor: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(MAX_CURSOR_LENGTH, 'cursor is not valid'),
      v.regex(/^[\w-]+$/, 'cursor is not valid'),
    ),
  ),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, `limit must be a whole number from 1 to ${MAX_ORDERS_PAGE}`),
      v.transform(Number),
      v.minValue(1, `limit must be a whole number from 1 to ${MAX_ORDERS_PAGE}`),
      v.maxValue(MAX_ORDERS_PAGE, `limit must be a whole number from 1 to ${MAX_ORDERS_PAGE}`),
    ),
  ),
});
/** A validated order list query. */
export type ListOrdersQuery = v.InferOutput<typeof ListOrdersQuery>;

/** Body of PATCH /api/orders/{id}: the next status and the version edited. */
export const UpdateOrderBody = v.object({
  status: v.picklist(ORDER_STATUSES, STATUS_MESSAGE),
  updatedAt: UpdatedAtSchema,
});
/** A validated order status change. */
export type UpdateOrderBody = v.InferOutput<typeof UpdateOrderBody>;

/**
 * An order as the handlers build it: the shared order shape (OrderSchema, the one the route
 * declares and checks) with its times as dates, which go out as the ISO strings it reads.
 */
export type OrderView = Omit<Order, 'createdAt' | 'updatedAt' | 'stockHeldUntil'> & {
  createdAt: Date;
  updatedAt: Date;
  stockHeldUntil: Date | null;
};

/** Texts of the order errors a shopper or merchant can see. */
export const ORDER_MESSAGES = {
  notFound: 'Order not found',
  totalsMismatch: 'Order totals do not match current prices; refresh and try again',
  unknownShipping: 'Shipping must be free (0.00), standard (12.99) or express (24.99)',
  storeClosed: 'This store is not taking orders right now',
  noPaymentAddress: 'This store cannot accept payments yet; please contact the merchant',
  zeroTotal: ZERO_TOTAL_MESSAGE,
  unavailable: (title: string) =>
    `"${title}" is no longer available; remove it from your cart and try again`,
  outOfStock: (title: string, left: number) => `Only ${left} of "${title}" left in stock`,
  soldOut: (title: string) => `"${title}" is sold out`,
  overLimit: (title: string, max: number) => `You can order at most ${max} of "${title}"`,
  transition: (from: string, to: string) =>
    `An order that is ${from} cannot be marked ${to}; orders move from paid to processing, shipped, then completed`,
} as const;
