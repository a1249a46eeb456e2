// Routes: GET /api/stores/{id}/customers
import { CustomerListQuerySchema, CustomerSchema } from '@store/shared/customers';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { NEXT_CURSOR_HEADER } from '../orders/model.ts';
import { listStoreCustomers } from './service.ts';

const customer = registerResponseSchema('Customer', CustomerSchema);

/** The people who ordered from each store. */
export const customersModule = ({ db }: AppDeps) => {
  return new Elysia({ name: 'customers' }).use(accessPlugin(db)).get(
    '/api/stores/:id/customers',
    async ({ params, query, set, user }) => {
      const page = await listStoreCustomers(db, user.id, params.id, query);
      if (page.nextCursor) set.headers[NEXT_CURSOR_HEADER] = page.nextCursor;
      return page.customers;
    },
    {
      query: CustomerListQuerySchema,
      access: 'merchant',
      ...contract({
        tags: ['stores'],
        summary:
          "A store's customers: one per email address, with orders, total paid, first and last order",
        description:
          "Newest last order first. `q` finds part of an email or of a name (of any of the customer's orders). `name` is from the latest order's address; `orders` counts every order, `paidOrders` and `totalPaidUsdc` those paid, processing, shipped or completed. A full page (`limit`, default 100, at most 500) carries `X-Next-Cursor`: pass it as `cursor` for the next page. A customer's orders: GET /api/orders?storeId={id}&q={email}.",
        ok: { 200: v.array(customer) },
        errors: ['not_found'],
      }),
    },
  );
};
