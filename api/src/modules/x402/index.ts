// Routes: GET /api/x402/products/{id}, a digital product's payable URL (HTTP 402, x402 v2).
import { Elysia } from 'elysia';
import type { PublicClient } from 'viem';
import type { ApiConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { routeDoc } from '../../http/openapi.ts';
import { paymentDeps } from '../payments/model.ts';
import {
  decodePaymentSignature,
  X402_MESSAGES as M,
  publicOrigin,
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
  return new Elysia({ name: 'x402' }).get(
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
      detail: routeDoc({
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
