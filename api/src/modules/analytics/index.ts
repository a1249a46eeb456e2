// Routes: GET /api/stores/{id}/analytics
import { Elysia } from 'elysia';
import type { AppDeps } from '../../app.ts';
import { routeDoc } from '../../http/openapi.ts';
import { sessionPlugin, signedInGuard } from '../../http/session.ts';
import { getStoreAnalytics } from './service.ts';

/** The dashboard's 30-day figures of one of the merchant's stores. */
export const analyticsModule = ({ db }: AppDeps) =>
  new Elysia({ name: 'analytics' })
    .use(sessionPlugin(db))
    .get(
      '/api/stores/:id/analytics',
      async ({ params, requireUser }) => getStoreAnalytics(db, (await requireUser()).id, params.id),
      {
        transform: signedInGuard(db),
        detail: routeDoc({
          tags: ['stores'],
          summary:
            'activeProducts, totalRevenue30Days (paid and later, 2-decimal string), totalOrders30Days',
          ok: { 200: 'StoreAnalytics' },
          errors: ['not_found'],
          access: 'merchant',
        }),
      },
    );
