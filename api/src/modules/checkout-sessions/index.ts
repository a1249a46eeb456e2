// Routes: POST /api/checkout-sessions, GET /api/checkout-sessions/{id},
// GET /api/checkout-sessions/{id}/public, POST /api/checkout-sessions/{id}/complete
import {
  CheckoutSessionSchema,
  CompleteCheckoutSessionSchema,
  CompletedCheckoutSessionSchema,
  CreateCheckoutSessionSchema,
  CreatedCheckoutSessionSchema,
  PublicCheckoutSessionSchema,
} from '@store/shared';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { publicOriginOf } from '../../http/public-origin.ts';
import { publicWriteGuards } from '../../http/rate-limit.ts';
import {
  completeCheckoutSession,
  createCheckoutSession,
  getCheckoutSession,
  getPublicCheckoutSession,
} from './service.ts';

const tags = ['checkout-sessions'];
const created = registerResponseSchema('CheckoutSessionCreated', CreatedCheckoutSessionSchema);
const owned = registerResponseSchema('CheckoutSession', CheckoutSessionSchema);
const hosted = registerResponseSchema('PublicCheckoutSession', PublicCheckoutSessionSchema);
const completed = registerResponseSchema(
  'CheckoutSessionCompleted',
  CompletedCheckoutSessionSchema,
);

/** Server-side checkouts: created with an API key, checked out by the shopper on our page. */
export const checkoutSessionsModule = ({ db, config }: AppDeps) => {
  const limits = publicWriteGuards({ db, config });
  /** Where the hosted checkout lives: PUBLIC_URL, else the origin this request addressed. */
  const publicOrigin = (request: Request) => publicOriginOf(config, request);
  return new Elysia({ name: 'checkout-sessions' })
    .use(accessPlugin(db))
    .post(
      '/api/checkout-sessions',
      async ({ body, request, set, user }) => {
        const created = await createCheckoutSession(db, user, body, publicOrigin(request));
        set.status = 201;
        return created;
      },
      {
        body: CreateCheckoutSessionSchema,
        access: 'merchant',
        ...contract({
          tags,
          summary:
            'Create a hosted checkout of your store with fixed items and prices (Bearer key); redirect the shopper to `url`',
          ok: { 201: created },
          errors: ['not_found'],
        }),
      },
    )
    .get(
      '/api/checkout-sessions/:id',
      async ({ params, request, user }) =>
        getCheckoutSession(db, user, params.id, publicOrigin(request)),
      {
        access: 'merchant',
        ...contract({
          tags,
          summary:
            'A session of your store (any member who may read it): open, awaiting_payment, completed or expired, and its order',
          ok: { 200: owned },
          errors: ['not_found'],
        }),
      },
    )
    .get(
      '/api/checkout-sessions/:id/public',
      ({ params }) => getPublicCheckoutSession(db, params.id),
      {
        ...contract({
          tags,
          summary:
            "What the hosted checkout shows (items, amounts, the store's look; no owner data)",
          ok: { 200: hosted },
          errors: ['not_found'],
        }),
      },
    )
    .post(
      '/api/checkout-sessions/:id/complete',
      async ({ params, body, set }) => {
        const completed = await completeCheckoutSession(db, params.id, body);
        set.status = 201;
        return completed;
      },
      {
        // 429 past the orders one client may place per minute.
        transform: limits.storeOrder,
        body: CompleteCheckoutSessionSchema,
        ...contract({
          tags,
          summary:
            "The shopper's details: creates the store order from the session's own items and prices (once)",
          ok: { 201: completed },
          errors: ['not_found', 'invalid_state', 'rate_limited'],
        }),
      },
    );
};
