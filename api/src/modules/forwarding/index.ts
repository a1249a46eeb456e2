// Routes: GET /api/orders/{id}/forwarding, POST /api/orders/{id}/forwarding/retry
import { ForwardingResponseSchema } from '@store/shared';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context.ts';
import { contract } from '../../http/openapi.ts';
import { sessionPlugin, signedInGuard } from '../../http/session.ts';
import { getForwarding, retryForwarding } from './service.ts';

const tags = ['payments'];

/** Where an order's money went, for the owner of its store; a retry once forwarding stopped. */
export const forwardingModule = ({ db }: AppDeps) => {
  const signedIn = signedInGuard(db);
  return new Elysia({ name: 'forwarding' })
    .use(sessionPlugin(db))
    .get(
      '/api/orders/:id/forwarding',
      async ({ params, requireUser }) => getForwarding(db, (await requireUser()).id, params.id),
      {
        transform: signedIn,
        ...contract({
          tags,
          summary: 'Forwarding status, last error and transactions of your order',
          ok: { 200: ForwardingResponseSchema },
          errors: ['not_found'],
          access: 'merchant',
        }),
      },
    )
    .post(
      '/api/orders/:id/forwarding/retry',
      async ({ params, requireUser }) => retryForwarding(db, (await requireUser()).id, params.id),
      {
        transform: signedIn,
        ...contract({
          tags,
          summary: 'Try a failed forwarding (or one waiting for the relayer) again now',
          ok: { 200: ForwardingResponseSchema },
          errors: ['not_found', 'invalid_state'],
          access: 'merchant',
        }),
      },
    );
};
