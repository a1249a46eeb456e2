// Routes: GET /api/orders/{id}/forwarding, POST /api/orders/{id}/forwarding/retry
import { ForwardingResponseSchema } from '@store/shared';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { contract } from '../../http/openapi.ts';
import { getForwarding, retryForwarding } from './service.ts';

const tags = ['payments'];

/** Where an order's money went, for the owner of its store; a retry once forwarding stopped. */
export const forwardingModule = ({ db }: AppDeps) => {
  return new Elysia({ name: 'forwarding' })
    .use(accessPlugin(db))
    .get(
      '/api/orders/:id/forwarding',
      async ({ params, user }) => getForwarding(db, user, params.id),
      {
        access: 'merchant',
        ...contract({
          tags,
          summary: 'Forwarding status, last error and transactions of your order',
          ok: { 200: ForwardingResponseSchema },
          errors: ['not_found'],
        }),
      },
    )
    .post(
      '/api/orders/:id/forwarding/retry',
      async ({ params, user }) => retryForwarding(db, user, params.id),
      {
        access: 'merchant',
        ...contract({
          tags,
          summary: 'Try a failed forwarding (or one waiting for the relayer) again now',
          ok: { 200: ForwardingResponseSchema },
          errors: ['not_found', 'invalid_state'],
        }),
      },
    );
};
