// Routes: GET /api/x402/products/{id}, a digital product's payable URL (HTTP 402, x402 v2);
// POST /api/x402/pay-to, POST /api/x402/facilitator/verify, POST /api/x402/facilitator/settle,
// GET /api/x402/facilitator/supported: the facilitator a merchant's own x402 server points at;
// GET /api/stores/{id}/x402-payers: what each payer address spent at the store.
import { Elysia } from 'elysia';
import type { PublicClient } from 'viem';
import type { ApiConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { accessPlugin } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { clientKey, type RateLimit, RateLimiter } from '../../http/rate-limit.ts';
import { objectStoreFor } from '../../uploads/storage.ts';
import { paymentDeps } from '../payments/model.ts';
import { createPayTo, facilitatorSettle, facilitatorVerify, supported } from './facilitator.ts';
import {
  decodePaymentSignature,
  FacilitatorRequestSchema,
  X402_MESSAGES as M,
  PayToRequestSchema,
  PayToSchema,
  publicOrigin,
  SettleResponseSchema,
  SupportedSchema,
  VerifyResponseSchema,
  X402_HEADERS,
  x402PathOf,
} from './model.ts';
import { PayersSchema, payerSummary } from './payers.ts';
import {
  acceptPayment,
  findResource,
  offerPayment,
  servePaid,
  type X402Answer,
  type X402Deps,
} from './service.ts';

const tags = ['x402'];

const payToDoc = registerResponseSchema('X402PayTo', PayToSchema);
const supportedDoc = registerResponseSchema('X402Supported', SupportedSchema);
const verifyDoc = registerResponseSchema('X402VerifyResponse', VerifyResponseSchema);
const settleDoc = registerResponseSchema('X402SettleResponse', SettleResponseSchema);
const payersDoc = registerResponseSchema('X402Payers', PayersSchema);

const toResponse = (answer: X402Answer) =>
  new Response(answer.body, { status: answer.status, headers: answer.headers });

/** Digital products paid per request over HTTP 402. */
export const x402Module = (app: { db: Database; config: ApiConfig; chain: PublicClient }) => {
  const deps: X402Deps = {
    db: app.db,
    config: app.config,
    chain: app.chain,
    payments: paymentDeps(app),
    files: objectStoreFor(app.config),
  };
  const limiter = new RateLimiter(app.db);
  const limits: Record<'offers' | 'payer', RateLimit> = {
    offers: {
      bucket: 'x402-offers:client',
      max: app.config.rateLimits.x402OffersPerMinute,
      windowMs: 60_000,
    },
    payer: {
      bucket: 'x402:payer',
      max: app.config.rateLimits.x402PayerPerMinute,
      windowMs: 60_000,
    },
  };
  return new Elysia({ name: 'x402' })
    .use(accessPlugin(app.db))
    .post(
      '/api/x402/pay-to',
      async ({ body, set, user }) => {
        set.status = 201;
        return createPayTo(deps, user, body);
      },
      {
        body: PayToRequestSchema,
        access: 'apiKey',
        ...contract({
          tags,
          summary:
            'A fresh deposit address (`payTo`) for one request your own x402 server charges (Bearer key)',
          description:
            'Opens a pending order of your store for `amountUsdc` and answers its payment requirements (x402 v2 `exact`): give them to your x402 middleware, with this API’s facilitator, for one request. Paid, the order is forwarded 98/2 and webhooked like any order.',
          ok: { 201: payToDoc },
          errors: ['not_found', 'validation_failed'],
        }),
      },
    )
    .get(
      '/api/stores/:id/x402-payers',
      async ({ params, user }) => payerSummary(app.db, user, params.id),
      {
        access: 'merchant',
        ...contract({
          tags,
          summary: 'What each payer address spent at your store over HTTP 402 (x402)',
          description:
            'Read from the paid orders (the payer is the authorization’s signer): the total, the number of payments and when the last was paid; the biggest spenders first, at most 100.',
          ok: { 200: payersDoc },
          errors: ['not_found'],
        }),
      },
    )
    .get('/api/x402/facilitator/supported', () => supported(deps), {
      access: 'apiKey',
      ...contract({
        tags,
        summary: 'x402 facilitator: the payment kinds it settles (Bearer key)',
        ok: { 200: supportedDoc },
      }),
    })
    .post(
      '/api/x402/facilitator/verify',
      async ({ body, user }) => facilitatorVerify(deps, user, body),
      {
        body: FacilitatorRequestSchema,
        access: 'apiKey',
        ...contract({
          tags,
          summary:
            'x402 facilitator: verify a payment to one of your deposit addresses (Bearer key)',
          description:
            'x402 v2 facilitator `/verify`: `payTo` must be a deposit address of your store from POST /api/x402/pay-to, still unpaid; the EIP-3009 authorization is checked (signature, amount, recipient, validity window, balance, unused nonce). Nothing is submitted.',
          ok: { 200: verifyDoc },
          errors: ['validation_failed'],
        }),
      },
    )
    .post(
      '/api/x402/facilitator/settle',
      async ({ body, user }) => facilitatorSettle(deps, user, body),
      {
        body: FacilitatorRequestSchema,
        access: 'apiKey',
        ...contract({
          tags,
          summary:
            'x402 facilitator: settle a payment to one of your deposit addresses (Bearer key)',
          description:
            'x402 v2 facilitator `/settle`: verified as `/verify`, then submitted by our relayer; answers once the transfer is in a block. The order is paid, forwarded 98/2 and webhooked as any order. The same authorization settled again answers the same transaction and is not charged again.',
          ok: { 200: settleDoc },
          errors: ['validation_failed'],
        }),
      },
    )
    .get(
      '/api/x402/products/:id',
      async ({ params, request, server, set }) => {
        const resource = await findResource(app.db, params.id);
        if (!resource) throw new AppError('not_found', M.notFound);
        const url = new URL(request.url);
        const resourceUrl = `${publicOrigin(app.config, request)}${x402PathOf(resource.id)}${url.search}`;
        const header = request.headers.get(X402_HEADERS.signature);
        // Note: every answer that opens an order and a deposit address counts for the client.
        const limitOffer = () =>
          limiter.enforce(set, [
            {
              limit: limits.offers,
              key: clientKey({ request, server }, app.config),
              reason: M.offersLimited,
            },
          ]);
        if (!header) {
          await limitOffer();
          return toResponse(await offerPayment(deps, resource, resourceUrl));
        }
        const payment = decodePaymentSignature(header);
        if (!payment) {
          await limitOffer();
          return toResponse(
            await offerPayment(deps, resource, resourceUrl, `invalid_payload: ${M.badHeader}`),
          );
        }
        await limiter.enforce(set, [
          {
            limit: limits.payer,
            key: payment.payload.authorization.from.toLowerCase(),
            reason: M.payerLimited,
          },
        ]);
        const accepted = await acceptPayment(deps, resource, payment, resourceUrl, limitOffer);
        if ('refused' in accepted) return toResponse(accepted.refused);
        return toResponse(await servePaid(deps, resource, accepted.row, resourceUrl, url.search));
      },
      {
        ...contract({
          tags,
          summary: "A digital product's payable URL (HTTP 402 with x402 v2 requirements)",
          description:
            'Without `PAYMENT-SIGNATURE`: 402 with `PAYMENT-REQUIRED` (base64 JSON: the `exact` scheme, the chain as CAIP-2, USDC, the price in base units and a fresh deposit address as `payTo`). With a valid signed EIP-3009 authorization: settled by our relayer, then the merchant’s API answers, with `PAYMENT-RESPONSE` (the transaction, network and payer). The same authorization sent again gets the same answer and is not charged again.',
          ok: {
            200: {
              mediaType: '*/*',
              description: 'The merchant API’s answer, with `PAYMENT-RESPONSE`',
            },
          },
          errors: ['not_found', 'rate_limited'],
        }),
      },
    );
};
