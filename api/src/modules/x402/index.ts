// Routes: GET /api/x402/products/{id}, a digital product's payable URL (HTTP 402, x402 v2);
// POST /api/x402/pay-to, POST /api/x402/facilitator/verify, POST /api/x402/facilitator/settle,
// GET /api/x402/facilitator/supported: the facilitator a merchant's own x402 server points at.
import { Elysia } from 'elysia';
import type { PublicClient } from 'viem';
import type { ApiConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { bearerTokenOf, sessionPlugin, signedInGuard } from '../../http/session.ts';
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

const toResponse = (answer: X402Answer) =>
  new Response(answer.body, { status: answer.status, headers: answer.headers });

/** Digital products paid per request over HTTP 402. */
export const x402Module = (app: { db: Database; config: ApiConfig; chain: PublicClient }) => {
  const deps: X402Deps = {
    db: app.db,
    config: app.config,
    chain: app.chain,
    payments: paymentDeps(app),
  };
  /** The merchant of a request by its API key only (a browser's cookie is not a facilitator client). */
  const keyHolder = async (request: Request, requireUser: () => Promise<{ id: string }>) => {
    if (bearerTokenOf(request) === undefined)
      throw new AppError('unauthorized', 'An API key is required: Authorization: Bearer sk_…');
    return requireUser();
  };
  const signedIn = signedInGuard(app.db);
  /** A route's `transform`: 401 without a valid API key, before the body is validated. */
  const keyGuard = async ({ request }: { request: Request }) => {
    if (bearerTokenOf(request) === undefined)
      throw new AppError('unauthorized', 'An API key is required: Authorization: Bearer sk_…');
    await signedIn({ request });
  };
  return new Elysia({ name: 'x402' })
    .use(sessionPlugin(app.db))
    .post(
      '/api/x402/pay-to',
      async ({ body, request, requireUser, set }) => {
        const user = await keyHolder(request, requireUser);
        set.status = 201;
        return createPayTo(deps, user.id, body);
      },
      {
        transform: keyGuard,
        body: PayToRequestSchema,
        ...contract({
          tags,
          summary:
            'A fresh deposit address (`payTo`) for one request your own x402 server charges (Bearer key)',
          description:
            'Opens a pending order of your store for `amountUsdc` and answers its payment requirements (x402 v2 `exact`): give them to your x402 middleware, with this API’s facilitator, for one request. Paid, the order is forwarded 98/2 and webhooked like any order.',
          ok: { 201: payToDoc },
          errors: ['not_found', 'validation_failed'],
          access: 'merchant',
        }),
      },
    )
    .get(
      '/api/x402/facilitator/supported',
      async ({ request, requireUser }) => {
        await keyHolder(request, requireUser);
        return supported(deps);
      },
      {
        transform: keyGuard,
        ...contract({
          tags,
          summary: 'x402 facilitator: the payment kinds it settles (Bearer key)',
          ok: { 200: supportedDoc },
          access: 'merchant',
        }),
      },
    )
    .post(
      '/api/x402/facilitator/verify',
      async ({ body, request, requireUser }) =>
        facilitatorVerify(deps, (await keyHolder(request, requireUser)).id, body),
      {
        transform: keyGuard,
        body: FacilitatorRequestSchema,
        ...contract({
          tags,
          summary:
            'x402 facilitator: verify a payment to one of your deposit addresses (Bearer key)',
          description:
            'x402 v2 facilitator `/verify`: `payTo` must be a deposit address of your store from POST /api/x402/pay-to, still unpaid; the EIP-3009 authorization is checked (signature, amount, recipient, validity window, balance, unused nonce). Nothing is submitted.',
          ok: { 200: verifyDoc },
          errors: ['validation_failed'],
          access: 'merchant',
        }),
      },
    )
    .post(
      '/api/x402/facilitator/settle',
      async ({ body, request, requireUser }) =>
        facilitatorSettle(deps, (await keyHolder(request, requireUser)).id, body),
      {
        transform: keyGuard,
        body: FacilitatorRequestSchema,
        ...contract({
          tags,
          summary:
            'x402 facilitator: settle a payment to one of your deposit addresses (Bearer key)',
          description:
            'x402 v2 facilitator `/settle`: verified as `/verify`, then submitted by our relayer; answers once the transfer is in a block. The order is paid, forwarded 98/2 and webhooked as any order. The same authorization settled again answers the same transaction and is not charged again.',
          ok: { 200: settleDoc },
          errors: ['validation_failed'],
          access: 'merchant',
        }),
      },
    )
    .get(
      '/api/x402/products/:id',
      async ({ params, request }) => {
        const resource = await findResource(app.db, params.id);
        if (!resource) throw new AppError('not_found', M.notFound);
        const url = new URL(request.url);
        const resourceUrl = `${publicOrigin(app.config, request)}${x402PathOf(resource.id)}${url.search}`;
        const header = request.headers.get(X402_HEADERS.signature);
        if (!header) return toResponse(await offerPayment(deps, resource, resourceUrl));
        const payment = decodePaymentSignature(header);
        if (!payment)
          return toResponse(
            await offerPayment(deps, resource, resourceUrl, `invalid_payload: ${M.badHeader}`),
          );
        const accepted = await acceptPayment(deps, resource, payment, resourceUrl);
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
          errors: ['not_found'],
        }),
      },
    );
};
