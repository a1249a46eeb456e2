// Routes: POST /api/universal-orders (the checkout form's body, or the payment page's)

import {
  CreateUniversalOrderSchema,
  CreateUniversalWalletSchema,
  UniversalOrderCreatedSchema,
} from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { contract } from '../../http/openapi.ts';
import { publicWriteGuards } from '../../http/rate-limit.ts';
import { assignPaymentWallet } from '../payments/assign-payment-wallet.ts';
import { paymentDeps } from '../payments/model.ts';
import { refuseUnpayableAddress } from '../payouts/payout-address.ts';
import { parseUniversalBody } from './model.ts';
import { createUniversalOrder } from './service.ts';
import { checkSignedLink, holdToLink } from './signed-link.ts';

/** Orders of external stores that link to the universal checkout. */
export const universalOrdersModule = (app: AppDeps) => {
  const deps = paymentDeps(app);
  const limits = publicWriteGuards(app);
  return new Elysia({ name: 'universal-orders' }).post(
    '/api/universal-orders',
    async ({ body, set }) => {
      const parsed = parseUniversalBody(body);
      // A signed link's order must be the link's (else 422, altered); an unsigned one is taken
      // as sent and says `signed: false`.
      const link = parsed.input.signedLink
        ? await checkSignedLink(deps.db, parsed.input.signedLink)
        : { signed: false as const };
      const input = link.signed ? holdToLink(parsed.input, link.params) : parsed.input;
      await refuseUnpayableAddress(deps.db, app.config, input.storePaymentAddress);
      const order = await createUniversalOrder(deps.db, input, {
        allowPrivateWebhooks: app.config.allowPrivateWebhooks,
        ...(link.signed ? { signedBy: link.storeId } : {}),
      });
      set.status = 201;
      if (parsed.form === 'order') return { order };
      // Note: the one-call form for integrators: the order and its deposit address at once.
      const { paymentWallet } = await assignPaymentWallet(
        deps,
        order.id,
        parsed.input.paymentChain,
      );
      return { paymentWallet, order };
    },
    {
      // 429 past the orders of one client, or to one payout address, per minute.
      transform: limits.universalOrder,
      ...contract({
        tags: ['universal orders'],
        summary:
          'Create a universal order: answers { order: { id } }, or with `paymentChain` ' +
          '{ paymentWallet, order } (totals are recomputed and must match, else 422). With ' +
          "`signedLink` (the query of a signed link) the order must be that link's, else 422.",
        // Note: the body is validated in the handler, by the form its `paymentChain` picks.
        body: v.union([CreateUniversalWalletSchema, CreateUniversalOrderSchema]),
        ok: { 201: UniversalOrderCreatedSchema },
        errors: ['bad_request', 'payload_too_large', 'unsupported_media_type', 'rate_limited'],
      }),
    },
  );
};
