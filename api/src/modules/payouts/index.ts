// Routes: GET /api/stores/{id}/payouts and GET /api/stores/{id}/payouts/csv
import { MONEY_MOVEMENTS_MAX_DAYS, MoneyMovementsQuerySchema } from '@store/shared/analytics';
import { PAYOUTS_MAX_DAYS, PayoutsQuerySchema, PayoutsSchema } from '@store/shared/payouts';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { storePayouts, storePayoutsCsv } from './service.ts';

const payouts = registerResponseSchema('Payouts', PayoutsSchema);
const what =
  "A payout is a forwarding leg of the merchant's share (already net of the platform's 2% fee) into the payout wallet, counted once confirmed at depth, on the UTC day of its block; a merchant_refund is a refund sent from the payout wallet to a payer and matched on the chain. The rows are the accounting export's merchant and merchant_refund movements.";

/** What reached each store's payout wallet per day, and its CSV. */
export const payoutsModule = ({ db }: AppDeps) => {
  return new Elysia({ name: 'payouts' })
    .use(accessPlugin(db))
    .get(
      '/api/stores/:id/payouts',
      async ({ params, query, user }) => storePayouts(db, user, params.id, query),
      {
        query: PayoutsQuerySchema,
        access: 'merchant',
        ...contract({
          tags: ['stores'],
          summary: "What reached a store's payout wallet per UTC day, with its transactions",
          description: `${what} Per day and in total: payouts and refunds counted, received, refunded, net (received - refunded, negative on a day that refunded more) and the fee legs confirmed that day (not part of received). Days with activity, newest first, each with its transfers oldest first. \`from\` and \`to\` are UTC days (YYYY-MM-DD), both included, at most ${PAYOUTS_MAX_DAYS} days apart; without them, the last 30 days.`,
          ok: { 200: payouts },
          errors: ['not_found'],
        }),
      },
    )
    .get(
      '/api/stores/:id/payouts/csv',
      async ({ params, query, user }) => storePayoutsCsv(db, user, params.id, query),
      {
        query: MoneyMovementsQuerySchema,
        access: 'merchant',
        ...contract({
          tags: ['stores'],
          summary:
            "A store's payouts as a CSV file: one line per transfer into or out of the payout wallet",
          description: `${what} Oldest first, streamed as RFC 4180 CSV. \`from\` and \`to\` as for the payouts page, at most ${MONEY_MOVEMENTS_MAX_DAYS} days apart.`,
          ok: { 200: { mediaType: 'text/csv', description: 'The CSV file (an attachment)' } },
          errors: ['not_found'],
        }),
      },
    );
};
