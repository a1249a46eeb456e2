// Routes: GET /api/orders/{id}/refunds, POST /api/orders/{id}/accept-underpaid,
// POST /api/orders/{id}/refunds (merchant, owner only); GET /api/orders/{id}/refund-claims,
// GET and POST /api/refund-claims/{token} (the payer, by the order's id or the claim link's token).
import {
  ClaimRefundSchema,
  CreateRefundSchema,
  OrderRefundClaimsSchema,
  OrderRefundsSchema,
  RefundClaimSchema,
  RefundSentSchema,
} from '@store/shared';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { BUYER_TOKEN_HEADER } from '../../http/buyer-token.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { clientKey, RateLimiter } from '../../http/rate-limit.ts';
import { auditActorOf } from '../audit/record.ts';
import {
  acceptUnderpaid,
  claimRefund,
  createRefund,
  getRefundClaim,
  listOrderRefunds,
  noteRefundSent,
  orderRefundClaims,
} from './service.ts';

const tags = ['refunds'];
const orderRefunds = registerResponseSchema('OrderRefunds', OrderRefundsSchema);
const refundClaim = registerResponseSchema('RefundClaim', RefundClaimSchema);
const refundClaims = registerResponseSchema('OrderRefundClaims', OrderRefundClaimsSchema);

/** Claim reads and writes per client and minute (a token is 256 bits: this only stops floods). */
const CLAIM_LIMIT = { bucket: 'refund-claims:client', max: 30, windowMs: 60_000 };

/** Refunds: the merchant's decisions and view, the payer's claim. */
export const refundsModule = ({ db, config }: AppDeps) => {
  const limiter = new RateLimiter(db);
  const claimLimit = (
    context: Parameters<typeof clientKey>[0] & { set: { headers: Record<string, unknown> } },
  ) =>
    limiter.enforce(context.set, [
      {
        limit: CLAIM_LIMIT,
        key: clientKey(context, config),
        reason: 'Too many refund requests from your network',
      },
    ]);
  const chainId = config.chain.chainId;
  return new Elysia({ name: 'refunds' })
    .use(accessPlugin(db))
    .get(
      '/api/orders/:id/refunds',
      async ({ params, user }) => listOrderRefunds(db, user, params.id),
      {
        access: 'merchant',
        ...contract({
          tags,
          summary: 'What arrived, is missing, is extra, and the refunds of your order',
          ok: { 200: orderRefunds },
          errors: ['not_found'],
        }),
      },
    )
    .post(
      '/api/orders/:id/accept-underpaid',
      async ({ params, request, server, user }) =>
        acceptUnderpaid(db, user, params.id, auditActorOf({ request, server }, user, config)),
      {
        access: 'merchant',
        ...contract({
          tags,
          summary:
            'Accept your underpaid order as paid, the day it happens: what arrived is forwarded',
          description:
            'Its payment window closes now; the order becomes paid (order.paid, the receipt) with the exception accepted_underpaid and the shortfall stated, and the worker forwards what arrived (98% to you, 2% fee). A later top-up is held for the payer as an excess, with a claim link. 409 until what arrived is confirmed, or once a refund is under way.',
          ok: { 200: orderRefunds },
          errors: ['not_found', 'invalid_state'],
        }),
      },
    )
    .post(
      '/api/orders/:id/refunds',
      async ({ params, body, request, server, user }) =>
        createRefund(
          db,
          user,
          params.id,
          body.amount,
          auditActorOf({ request, server }, user, config),
        ),
      {
        body: CreateRefundSchema,
        access: 'merchant',
        ...contract({
          tags,
          summary:
            'Refund your order: a paid one from your payout wallet, an unpaid one from its deposit address',
          description:
            'A paid, forwarded order: a full refund, or `amount` (at most what is left to refund); once the payer confirms the address you send it from your payout wallet (one transfer, your network fee; the 2% fee is not returned) and it is matched on chain. An unpaid order (underpaid, the day it happens: its window closes first; or expired): everything on its deposit address goes back to the payer, the platform paying the network fee, no fee taken. The payer confirms the address through the claim link (emailed; shown on the order pages); order.refund_requested, then order.refunded. A refunded underpaid order is decided: a later top-up never pays it. 409 until an underpaid payment is confirmed, or while forwarding is not complete.',
          body: CreateRefundSchema,
          ok: { 200: orderRefunds },
          errors: ['not_found', 'invalid_state', 'validation_failed'],
        }),
      },
    )
    .post(
      '/api/orders/:id/refunds/:refundId/sent',
      async ({ params, body, request, server, user }) =>
        noteRefundSent(
          db,
          user,
          params.id,
          params.refundId,
          body.txHash,
          auditActorOf({ request, server }, user, config),
        ),
      {
        body: RefundSentSchema,
        access: 'merchant',
        ...contract({
          tags,
          summary: 'Note the transaction your wallet sent for a refund (it is matched on chain)',
          body: RefundSentSchema,
          ok: { 200: orderRefunds },
          errors: ['not_found', 'invalid_state', 'validation_failed'],
        }),
      },
    )
    .get(
      '/api/orders/:id/refund-claims',
      async ({ params, headers }) =>
        orderRefundClaims(db, params.id, headers[BUYER_TOKEN_HEADER] ?? ''),
      {
        transform: claimLimit,
        ...contract({
          tags,
          summary: 'Refunds of an order awaiting the payer’s address, with their claim links',
          description:
            'For the shopper who placed the order: send its buyer token (`reviewToken` of the order’s creation) in the X-Buyer-Token header; 404 without it.',
          ok: { 200: refundClaims },
          errors: ['not_found', 'rate_limited'],
        }),
      },
    )
    .get(
      '/api/refund-claims/:token',
      async ({ params }) => getRefundClaim(db, params.token, chainId),
      {
        transform: claimLimit,
        ...contract({
          tags,
          summary: 'A refund as its claim link shows it: amount, order, the paying address',
          ok: { 200: refundClaim },
          errors: ['not_found', 'rate_limited'],
        }),
      },
    )
    .post(
      '/api/refund-claims/:token',
      async ({ params, body }) => claimRefund(db, params.token, body.address, chainId),
      {
        transform: claimLimit,
        body: ClaimRefundSchema,
        ...contract({
          tags,
          summary: 'Confirm the address a refund goes to (then it is sent)',
          description:
            'A wallet address you control: checksummed if in mixed case, not the zero address, not a payment address of ours. An exchange deposit address may not credit a refund. 409 once an address was confirmed.',
          body: ClaimRefundSchema,
          ok: { 200: refundClaim },
          errors: ['not_found', 'validation_failed', 'invalid_state', 'rate_limited'],
        }),
      },
    );
};
