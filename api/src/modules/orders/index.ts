// Routes: POST /api/orders, GET /api/orders, GET /api/orders/{id}, GET /api/orders/{id}/detail,
// PATCH /api/orders/{id}, POST /api/orders/{id}/shipment, GET /api/orders/{id}/activity
import {
  CreatedOrderResponseSchema,
  MarkShippedSchema,
  OrderActivitySchema,
  OrderSchema,
  SHIPMENT_OUTCOMES,
} from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { BUYER_TOKEN_HEADER } from '../../http/buyer-token.ts';
import { anonymousScope, keyHandledByRoute, replayed } from '../../http/idempotency.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { mailOriginOrNull } from '../../http/public-origin.ts';
import { publicWriteGuards } from '../../http/rate-limit.ts';
import { getOrderActivity } from '../fulfilment/activity.ts';
import { markOrderShipped } from '../fulfilment/service.ts';
import { createOrder } from './create.ts';
import { CreateOrderBody, ListOrdersQuery, NEXT_CURSOR_HEADER, UpdateOrderBody } from './model.ts';
import { getOrder, getOwnOrderOrThrow, listMerchantOrders, updateOrderStatus } from './service.ts';

const tags = ['orders'];
const shipmentResult = registerResponseSchema(
  'ShipmentResult',
  v.object({
    order: OrderSchema,
    outcome: v.picklist(SHIPMENT_OUTCOMES),
    message: v.string(),
  }),
);
const orderActivity = registerResponseSchema('OrderActivity', OrderActivitySchema);

/** Store checkout orders for shoppers; the order list and fulfilment steps for merchants. */
export const ordersModule = ({ db, config }: AppDeps) => {
  const limits = publicWriteGuards({ db, config });
  return new Elysia({ name: 'orders' })
    .use(accessPlugin(db))
    .post(
      '/api/orders',
      async (context) => {
        const { body, set, request } = context;
        const outcome = await createOrder(db, {
          body,
          request,
          set,
          limits: limits.storeOrderChecks(context, body.storeId),
          anonymousScope: anonymousScope(context, config.trustProxy),
        });
        if ('replay' in outcome) return replayed(set, outcome.replay);
        set.status = 201;
        return outcome.order;
      },
      {
        // Note: the route counts its rate limits (429 past the orders of one client, or of one
        // store, per minute) and reads and writes its Idempotency-Key in its own statements.
        transform: ({ request }) => keyHandledByRoute(request),
        body: CreateOrderBody,
        ...contract({
          tags,
          summary: 'Create a pending order; totals are recomputed and must match (else 422)',
          description:
            "`reviewToken` is the buyer's proof of purchase for reviews: keep it in the shopper's browser only (the receipt carries it too); no other route returns it.",
          ok: { 201: CreatedOrderResponseSchema },
          errors: ['not_found', 'rate_limited'],
        }),
      },
    )
    .get(
      '/api/orders',
      async ({ query, set, user }) => {
        const page = await listMerchantOrders(db, user, query);
        if (page.nextCursor) set.headers[NEXT_CURSOR_HEADER] = page.nextCursor;
        return page.orders;
      },
      {
        query: ListOrdersQuery,
        access: 'merchant',
        ...contract({
          tags,
          summary: 'Orders of your stores, newest first: search, filters and cursor pages',
          description:
            '`q` finds an email, an order id or number, or an external order id; `status`, `exception` (underpaid, overpaid, paid_late, oversold), `storeId`, `customerEmail` (one address exactly, any case), `from` and `to` (days, UTC, inclusive) filter. A full page carries `X-Next-Cursor`: pass it as `cursor` for the next page.',
          ok: { 200: v.array(OrderSchema) },
          errors: ['not_found'],
        }),
      },
    )
    .get(
      '/api/orders/:id',
      async ({ params, headers }) => getOrder(db, params.id, headers[BUYER_TOKEN_HEADER]),
      {
        ...contract({
          tags,
          summary: 'An order by its id (for the payment and thank-you pages)',
          description:
            'Without the order’s buyer token (X-Buyer-Token: the `reviewToken` its creation answered) the order carries no personal data: `customerEmail` is empty and `shippingAddress` null.',
          ok: { 200: OrderSchema },
          errors: ['not_found'],
        }),
      },
    )
    .get(
      '/api/orders/:id/detail',
      async ({ params, user }) => getOwnOrderOrThrow(db, user, params.id, 'read'),
      {
        access: 'merchant',
        ...contract({
          tags,
          summary: "Your order, for the admin's order page (404 for another merchant's)",
          ok: { 200: OrderSchema },
          errors: ['not_found'],
        }),
      },
    )
    .patch(
      '/api/orders/:id',
      async ({ params, body, user }) => updateOrderStatus(db, user, params.id, body),
      {
        body: UpdateOrderBody,
        access: 'merchant',
        ...contract({
          tags,
          summary: 'Move your order from paid to processing, shipped, completed',
          ok: { 200: OrderSchema },
          errors: ['not_found', 'stale_version'],
        }),
      },
    )
    .post(
      '/api/orders/:id/shipment',
      async ({ params, body, request, user }) =>
        markOrderShipped(db, user, params.id, body, mailOriginOrNull(config, request)),
      {
        body: MarkShippedSchema,
        access: 'merchant',
        ...contract({
          tags,
          summary:
            'Mark your paid order shipped with its carrier and tracking (again: the tracking is updated)',
          description:
            'Sends `order.shipped` and emails the shopper. `outcome` says whether the order was shipped now, its tracking updated, or nothing changed. 409 for an order not paid.',
          ok: { 200: shipmentResult },
          errors: ['not_found', 'invalid_state'],
        }),
      },
    )
    .get(
      '/api/orders/:id/activity',
      async ({ params, user }) => getOrderActivity(db, user, params.id),
      {
        access: 'merchant',
        ...contract({
          tags,
          summary: "Your order's webhook deliveries and the timeline of its events",
          ok: { 200: orderActivity },
          errors: ['not_found'],
        }),
      },
    );
};
