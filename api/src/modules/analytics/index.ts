// Routes: GET /api/stores/{id}/analytics, GET /api/stores/{id}/analytics/daily,
// GET /api/analytics/daily, GET /api/stores/{id}/money-movements and .../money-movements/csv
import { StoreAnalyticsSchema } from '@store/shared';
import {
  DailySeriesQuerySchema,
  DailyVolumeSeriesSchema,
  MONEY_MOVEMENTS_DEFAULT_DAYS,
  MONEY_MOVEMENTS_MAX_DAYS,
  MoneyMovementSchema,
  MoneyMovementsQuerySchema,
} from '@store/shared/analytics';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { moneyMovementsCsv, moneyMovementsJson } from './movements.ts';
import { merchantDailySeries, storeDailySeries } from './series.ts';
import { getStoreAnalytics } from './service.ts';

const dailySeries = registerResponseSchema('DailyVolumeSeries', DailyVolumeSeriesSchema);
const movement = registerResponseSchema('MoneyMovement', MoneyMovementSchema);
const rangeText = `\`from\` and \`to\` are UTC days (YYYY-MM-DD), both included, at most ${MONEY_MOVEMENTS_MAX_DAYS} days apart; without them, the last ${MONEY_MOVEMENTS_DEFAULT_DAYS} days.`;

/** The dashboard's figures, charts' series and the accounting export of the merchant's stores. */
export const analyticsModule = ({ db }: AppDeps) => {
  return new Elysia({ name: 'analytics' })
    .use(accessPlugin(db))
    .get(
      '/api/stores/:id/analytics',
      async ({ params, user }) => getStoreAnalytics(db, user, params.id),
      {
        access: 'merchant',
        ...contract({
          tags: ['stores'],
          summary:
            'activeProducts, totalRevenue30Days (paid and later, 2-decimal string), totalOrders30Days',
          ok: { 200: StoreAnalyticsSchema },
          errors: ['not_found'],
        }),
      },
    )
    .get(
      '/api/stores/:id/analytics/daily',
      async ({ params, query, user }) => storeDailySeries(db, user, params.id, query),
      {
        query: DailySeriesQuerySchema,
        access: 'merchant',
        ...contract({
          tags: ['stores'],
          summary: "A store's money per UTC day (analytics.daily_volume): the chart's series",
          description:
            '`days` (1-366, default 30) up to today, every day present: orders paid, payments, gross received, merchant net and fees (USDC, 6 decimals; net and fees by the day their forwarding was mined), with totals.',
          ok: { 200: dailySeries },
          errors: ['not_found'],
        }),
      },
    )
    .get('/api/analytics/daily', async ({ query, user }) => merchantDailySeries(db, user, query), {
      query: DailySeriesQuerySchema,
      access: 'merchant',
      ...contract({
        tags: ['stores'],
        summary: "All of the merchant's stores' money per UTC day: the dashboard's chart",
        description: 'As GET /api/stores/{id}/analytics/daily, over every store of the merchant.',
        ok: { 200: dailySeries },
      }),
    })
    .get(
      '/api/stores/:id/money-movements',
      async ({ params, query, user }) => moneyMovementsJson(db, user, params.id, query),
      {
        query: MoneyMovementsQuerySchema,
        access: 'merchant',
        ...contract({
          tags: ['stores'],
          summary:
            "A store's money movements (accounting): each payment in and each forwarding leg out, with its transaction",
          description: `${rangeText} Oldest first, streamed. type payment (in: payer to deposit address), merchant (out: the merchant's net), fee (out: the platform's 2%), refund (out: to the payer). Per order, payments = merchant + fee (+ refunds and what the deposit address still holds).`,
          ok: { 200: v.array(movement) },
          errors: ['not_found'],
        }),
      },
    )
    .get(
      '/api/stores/:id/money-movements/csv',
      async ({ params, query, user }) => moneyMovementsCsv(db, user, params.id, query),
      {
        query: MoneyMovementsQuerySchema,
        access: 'merchant',
        ...contract({
          tags: ['stores'],
          summary: "A store's money movements as a CSV file (the accountant's reconciliation)",
          description: `${rangeText} The same rows as GET /api/stores/{id}/money-movements, streamed as RFC 4180 CSV.`,
          ok: { 200: { mediaType: 'text/csv', description: 'The CSV file (an attachment)' } },
          errors: ['not_found'],
        }),
      },
    );
};
