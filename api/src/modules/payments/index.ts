// Routes: POST /api/orders/{id}/assign-payment-wallet, GET /api/check-payment-status/{orderId},
// GET /api/orders/{id}/payment-events (the same status, pushed as Server-Sent Events)
import {
  AssignPaymentWalletSchema,
  DEFAULT_CHAIN,
  PaymentStatusResponseSchema,
  PaymentWalletEnvelopeSchema,
} from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { contract } from '../../http/openapi.ts';
import { clientKey, publicWriteGuards } from '../../http/rate-limit.ts';
import { assignPaymentWallet } from './assign-payment-wallet.ts';
import { checkPaymentStatus } from './check-payment-status.ts';
import { paymentDeps } from './model.ts';
import { PAYMENT_STREAM_DEFAULTS, paymentStreams } from './payment-events.ts';

const tags = ['payments'];

/** Deposit addresses of orders and the shopper's payment status. */
export const paymentsModule = (app: AppDeps) => {
  const deps = paymentDeps(app);
  const limits = publicWriteGuards(app);
  const streams = paymentStreams(deps, app.db.$client, {
    ...PAYMENT_STREAM_DEFAULTS,
    perClient: app.config.rateLimits.paymentStreamsPerClient,
    maxOpen: app.config.paymentStreamsMax,
  });
  // Note: the server's stop waits for open connections, so the streams close when stopping begins
  // (the browsers reconnect to another replica), and again at the stop for any opened since.
  app.shutdown?.addEventListener('abort', () => streams.closeAll(), { once: true });
  return new Elysia({ name: 'payments' })
    .onStop(() => streams.closeAll())
    .post(
      '/api/orders/:id/assign-payment-wallet',
      (context) =>
        assignPaymentWallet(
          deps,
          context.params.id,
          context.body?.paymentChain ?? DEFAULT_CHAIN,
          () => limits.stockHold(context, app.config.stockHoldMinutes),
        ),
      {
        // 429 past the deposit addresses one client asks for per minute.
        transform: limits.wallet,
        // Note: the payment pages send { paymentChain }; a bare POST means Base as well.
        body: v.optional(AssignPaymentWalletSchema),
        ...contract({
          tags,
          summary: "The order's deposit address (created on the first call, then the same one)",
          description:
            'The first call also holds the order’s units of tracked products for STOCK_HOLD_MINUTES (409 with the sold-out message when they are gone; 429 past the holds one client may make in that time).',
          ok: { 200: PaymentWalletEnvelopeSchema },
          errors: ['not_found', 'invalid_state', 'rate_limited'],
        }),
      },
    )
    .get(
      '/api/check-payment-status/:orderId',
      ({ params }) => checkPaymentStatus(deps, params.orderId),
      {
        ...contract({
          tags,
          summary: 'Payment status; paymentDetected turns true once the full amount is seen',
          ok: { 200: PaymentStatusResponseSchema },
          errors: ['not_found'],
        }),
      },
    )
    .get(
      '/api/orders/:id/payment-events',
      (context) => {
        // Note: Bun would otherwise close a stream that sends nothing for its idle timeout.
        context.server?.timeout?.(context.request, 0);
        return streams.open(
          context.params.id,
          clientKey(context, app.config),
          context.request.signal,
        );
      },
      {
        // 429 past the streams one client opens per minute.
        transform: limits.paymentStream,
        ...contract({
          tags,
          summary:
            'The payment status as Server-Sent Events (`status` events with the check-payment-status view) until the order is paid',
          ok: {
            200: {
              mediaType: 'text/event-stream',
              description: '`status` events, each with the PaymentStatus view as its data',
            },
          },
          errors: ['not_found', 'rate_limited', 'unavailable'],
        }),
      },
    );
};
