// Routes: GET /api/health
import { HealthResponseSchema } from '@store/shared';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context.ts';
import { contract } from '../../http/openapi.ts';
import { checkHealth } from './service.ts';

/** Health of the database, the chain, the indexer, the settlement addresses and the relayer. */
export const healthModule = ({ db, config, chain }: AppDeps) =>
  new Elysia({ name: 'health' }).get(
    '/api/health',
    async ({ set }) => {
      const health = await checkHealth({
        db,
        chain,
        chainId: config.chain.chainId,
        usdc: config.chain.usdc,
        indexerUrl: config.indexerUrl,
        relayer: config.relayerAddress,
        treasury: config.treasuryAddress,
        demoPayout: config.demoPayoutAddress,
        receiptsByEmail: config.receiptsByEmail,
        relayerMinForwards: config.relayerMinForwards,
        forwardingLagAlertS: config.forwardingLagAlertS,
      });
      if (!health.ok) set.status = 503;
      return health;
    },
    {
      ...contract({
        summary:
          'Health of the database, chain, indexer, settlement and relayer, with alerts (503 with the same body when a part is down)',
        ok: { 200: HealthResponseSchema, 503: HealthResponseSchema },
      }),
    },
  );
