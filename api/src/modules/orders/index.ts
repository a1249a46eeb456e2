// Routes: POST /api/orders, GET /api/orders, GET /api/orders/{id}, GET /api/orders/{id}/detail,
// PATCH /api/orders/{id}
import { Elysia } from 'elysia';
import type { AppDeps } from '../../app.ts';
import { routeDoc } from '../../http/openapi.ts';
import { publicWriteGuards } from '../../http/rate-limit.ts';
import { sessionPlugin, signedInGuard } from '../../http/session.ts';
import { CreateOrderBody, ListOrdersQuery, UpdateOrderBody } from './model.ts';
import {
  createOrder,
  getOrder,
  getOwnOrderOrThrow,
  listMerchantOrders,
  updateOrderStatus,
} from './service.ts';

const tags = ['orders'];

/** Store checkout orders for shoppers; the order list and fulfilment steps for merchants. */
export const ordersModule = ({ db, config }: AppDeps) => {
  const signedIn = signedInGuard(db);
  const limits = publicWriteGuards({ db, config });
  return new Elysia({ name: 'orders' })
    .use(sessionPlugin(db))
    .post(
      '/api/orders',
      async ({ body, set }) => {
        const order = await createOrder(db, body);
        set.status = 201;
        return order;
      },
      {
        // 429 past the orders of one client, or of one store, per minute.
        transform: limits.storeOrder,
        body: CreateOrderBody,
        detail: routeDoc({
          tags,
          summary: 'Create a pending order; totals are recomputed and must match (else 422)',
          ok: { 201: 'Order' },
          errors: ['not_found', 'rate_limited'],
        }),
      },
    )
    .get(
      '/api/orders',
      async ({ query, requireUser }) => listMerchantOrders(db, (await requireUser()).id, query),
      {
        transform: signedIn,
        query: ListOrdersQuery,
        detail: routeDoc({
          tags,
          summary: 'Orders of your stores, newest first',
          ok: { 200: ['Order'] },
          access: 'merchant',
        }),
      },
    )
    .get('/api/orders/:id', async ({ params }) => getOrder(db, params.id), {
      detail: routeDoc({
        tags,
        summary: 'An order by its id (for the payment and thank-you pages)',
        ok: { 200: 'Order' },
        errors: ['not_found'],
      }),
    })
    .get(
      '/api/orders/:id/detail',
      async ({ params, requireUser }) =>
        getOwnOrderOrThrow(db, (await requireUser()).id, params.id),
      {
        transform: signedIn,
        detail: routeDoc({
          tags,
          summary: "Your order, for the admin's order page (404 for another merchant's)",
          ok: { 200: 'Order' },
          errors: ['not_found'],
          access: 'merchant',
        }),
      },
    )
    .patch(
      '/api/orders/:id',
      async ({ params, body, requireUser }) =>
        updateOrderStatus(db, (await requireUser()).id, params.id, body),
      {
        transform: signedIn,
        body: UpdateOrderBody,
        detail: routeDoc({
          tags,
          summary: 'Move your order from paid to processing, shipped, completed',
          ok: { 200: 'Order' },
          errors: ['not_found', 'stale_version'],
          access: 'merchant',
        }),
      },
    );
};
