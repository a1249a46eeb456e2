// Routes: GET /api/health
import { Elysia } from 'elysia';
import { checkHealth, type HealthDeps } from './service.ts';

/** Health of the database, the chain, the indexer and the settlement addresses. */
export const healthModule = (deps: HealthDeps) =>
  new Elysia({ name: 'health' }).get(
    '/api/health',
    async ({ set }) => {
      const health = await checkHealth(deps);
      if (!health.ok) set.status = 503;
      return health;
    },
    { detail: { summary: 'Health of the database, chain, indexer and settlement' } },
  );
