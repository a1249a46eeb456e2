// Routes: GET and POST /api/stores/{id}/discounts, PUT and DELETE
// /api/stores/{id}/discounts/{discountId}, POST /api/discount-codes/check
import {
  DiscountCheckSchema,
  DiscountInputSchema,
  DiscountRuleSchema,
  DiscountSchema,
} from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { publicWriteGuards } from '../../http/rate-limit.ts';
import {
  createDiscount,
  deleteDiscount,
  listDiscounts,
  updateDiscount,
  usableDiscount,
} from './service.ts';

const tags = ['discounts'];
const discount = registerResponseSchema('Discount', DiscountSchema);
const rule = registerResponseSchema('DiscountRule', DiscountRuleSchema);

/** A store's discount codes for its merchant; the check of a code for a shopper's checkout. */
export const discountsModule = ({ db, config }: AppDeps) => {
  const guards = publicWriteGuards({ db, config });
  return new Elysia({ name: 'discounts' })
    .use(accessPlugin(db))
    .get('/api/stores/:id/discounts', ({ params, user }) => listDiscounts(db, user, params.id), {
      access: 'merchant',
      ...contract({
        tags,
        summary: "A store's discount codes, newest first, with their uses and paid orders",
        description:
          '`uses` counts what the limits count: orders placed with the code that are paid (or later) or pending and placed in the last 30 minutes. `paidOrders`, `discountedUsdc` and `revenueUsdc` count the orders paid, processing, shipped or completed.',
        ok: { 200: v.array(discount) },
        errors: ['not_found'],
      }),
    })
    .post(
      '/api/stores/:id/discounts',
      async ({ params, body, set, user }) => {
        const created = await createDiscount(db, user, params.id, body);
        set.status = 201;
        return created;
      },
      {
        body: DiscountInputSchema,
        access: 'merchant',
        ...contract({
          tags,
          summary: 'Create a discount code (case-insensitive, stored upper-case)',
          ok: { 201: discount },
          errors: ['not_found', 'already_exists'],
        }),
      },
    )
    .put(
      '/api/stores/:id/discounts/:discountId',
      ({ params, body, user }) => updateDiscount(db, user, params.id, params.discountId, body),
      {
        body: DiscountInputSchema,
        access: 'merchant',
        ...contract({
          tags,
          summary:
            "Replace a code's settings (isActive false deactivates it); orders placed with it keep their discount",
          ok: { 200: discount },
          errors: ['not_found', 'already_exists'],
        }),
      },
    )
    .delete(
      '/api/stores/:id/discounts/:discountId',
      ({ params, user }) => deleteDiscount(db, user, params.id, params.discountId),
      {
        access: 'merchant',
        ...contract({
          tags,
          summary: 'Delete a code; its orders keep the code and the amount it took off',
          ok: { 200: v.object({ id: v.string(), deleted: v.literal(true) }) },
          errors: ['not_found'],
        }),
      },
    )
    .post(
      '/api/discount-codes/check',
      async ({ body }) =>
        (await usableDiscount(db, body.storeId, body.code, body.customerEmail)).rule,
      {
        transform: (context) => guards.discountCheck(context),
        body: DiscountCheckSchema,
        ...contract({
          tags,
          summary:
            "A code a shopper typed at a store's checkout: what it takes off, or 422 with the reason (unknown, inactive, expired, used up)",
          description:
            'The order is priced again with the code when it is placed (POST /api/orders with `discountCode`); this answer only lets the checkout show the lower total. Rate-limited per client.',
          ok: { 200: rule },
          errors: ['rate_limited'],
        }),
      },
    );
};
