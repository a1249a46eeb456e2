// Routes: POST /api/orders, GET /api/orders, GET /api/orders/{id}, PATCH /api/orders/{id}
import { Elysia } from 'elysia';
import type { AppDeps } from '../../app.ts';
import { publicWriteGuards } from '../../http/rate-limit.ts';
import { sessionPlugin, signedInGuard } from '../../http/session.ts';
import { CreateOrderBody, ListOrdersQuery, UpdateOrderBody } from './model.ts';
import { createOrder, getOrder, listMerchantOrders, updateOrderStatus } from './service.ts';

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
        detail: {
          tags,
          summary: 'Create a pending order; totals are recomputed and must match (else 422)',
        },
      },
    )
    .get(
      '/api/orders',
      async ({ query, requireUser }) => listMerchantOrders(db, (await requireUser()).id, query),
      {
        transform: signedIn,
        query: ListOrdersQuery,
        detail: { tags, summary: 'Orders of your stores, newest first' },
      },
    )
    .get('/api/orders/:id', async ({ params }) => getOrder(db, params.id), {
      detail: { tags, summary: 'An order by its id (for the payment and thank-you pages)' },
    })
    .patch(
      '/api/orders/:id',
      async ({ params, body, requireUser }) =>
        updateOrderStatus(db, (await requireUser()).id, params.id, body),
      {
        transform: signedIn,
        body: UpdateOrderBody,
        detail: { tags, summary: 'Move your order from paid to processing, shipped, completed' },
      },
    );
};
