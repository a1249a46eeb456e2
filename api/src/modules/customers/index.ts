// Routes: GET /api/stores/{id}/customers, POST /api/stores/{id}/customers/erase
import { CustomerListQuerySchema, CustomerSchema } from '@store/shared/customers';
import { CustomerErasureBodySchema, CustomerErasureSchema } from '@store/shared/invoices';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { NEXT_CURSOR_HEADER } from '../orders/model.ts';
import { eraseStoreCustomer } from './erasure.ts';
import { listStoreCustomers } from './service.ts';

const customer = registerResponseSchema('Customer', CustomerSchema);
const erasure = registerResponseSchema('CustomerErasure', CustomerErasureSchema);

/** The people who ordered from each store. */
export const customersModule = ({ db }: AppDeps) => {
  return new Elysia({ name: 'customers' })
    .use(accessPlugin(db))
    .post(
      '/api/stores/:id/customers/erase',
      async ({ params, body, user }) => eraseStoreCustomer(db, user, params.id, body.email),
      {
        body: CustomerErasureBodySchema,
        access: 'merchant',
        ...contract({
          tags: ['stores'],
          summary: "Erase a customer's personal data from your store's orders (on their request)",
          description:
            "Every order of the store placed with this email (any case) keeps its lines, amounts, payment and invoice number and loses the person: email, name, phone and address, the customer part of its webhook payloads, the reviewer's name; mails not yet sent to them are not sent. The customer leaves the customers list and its search. `erasedOrders` counts the orders that had a person (0: none had this email). Cannot be undone.",
          ok: { 200: erasure },
          errors: ['not_found'],
        }),
      },
    )
    .get(
      '/api/stores/:id/customers',
      async ({ params, query, set, user }) => {
        const page = await listStoreCustomers(db, user, params.id, query);
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
