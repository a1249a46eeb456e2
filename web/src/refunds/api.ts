// The refund calls of the web app: the payer's claim (by the link's token), the claim links of an
// order's pages, and the merchant's view and decisions. Answers are checked against the shared
// schemas so an API change shows as one clear error.
import {
  OrderRefundClaimsSchema,
  type OrderRefunds,
  OrderRefundsSchema,
  type RefundClaim,
  RefundClaimSchema,
} from '@store/shared';
import * as v from 'valibot';
import { apiRequest } from '../lib/api.ts';
import { buyerHeaders } from '../lib/review-tokens.ts';

const path = (segment: string) => encodeURIComponent(segment);

/** GET /api/refund-claims/{token}. */
export async function getRefundClaim(token: string): Promise<RefundClaim> {
  return v.parse(RefundClaimSchema, await apiRequest('GET', `/api/refund-claims/${path(token)}`));
}

/** POST /api/refund-claims/{token}: the address the refund goes to. */
export async function confirmRefundClaim(token: string, address: string): Promise<RefundClaim> {
  return v.parse(
    RefundClaimSchema,
    await apiRequest('POST', `/api/refund-claims/${path(token)}`, { address }),
  );
}

/**
 * GET /api/orders/{id}/refund-claims: the order's refunds awaiting the payer's address, for the
 * browser that placed the order (it sends the order's buyer token); none in any other browser.
 */
export async function getOrderRefundClaims(orderId: string) {
  const buyer = buyerHeaders(orderId);
  if (!buyer.headers) return [];
  return v.parse(
    OrderRefundClaimsSchema,
    await apiRequest('GET', `/api/orders/${path(orderId)}/refund-claims`, undefined, buyer),
  );
}

/** GET /api/orders/{id}/refunds (the merchant's). */
export async function getOrderRefunds(orderId: string): Promise<OrderRefunds> {
  return v.parse(
    OrderRefundsSchema,
    await apiRequest('GET', `/api/orders/${path(orderId)}/refunds`),
  );
}

/** POST /api/orders/{id}/accept-underpaid. */
export async function acceptUnderpaid(orderId: string): Promise<OrderRefunds> {
  return v.parse(
    OrderRefundsSchema,
    await apiRequest('POST', `/api/orders/${path(orderId)}/accept-underpaid`),
  );
}

/**
 * POST /api/orders/{id}/refunds: an unpaid order from its deposit address; a paid one from the
 * payout wallet (`amount` in USDC, all that is left when absent).
 */
export async function createRefund(orderId: string, amount?: string): Promise<OrderRefunds> {
  return v.parse(
    OrderRefundsSchema,
    await apiRequest(
      'POST',
      `/api/orders/${path(orderId)}/refunds`,
      amount === undefined ? {} : { amount },
    ),
  );
}

/** POST /api/orders/{id}/refunds/{refundId}/sent: the wallet's transaction of a merchant refund. */
export async function noteRefundSent(
  orderId: string,
  refundId: string,
  txHash: string,
): Promise<OrderRefunds> {
  return v.parse(
    OrderRefundsSchema,
    await apiRequest('POST', `/api/orders/${path(orderId)}/refunds/${path(refundId)}/sent`, {
      txHash,
    }),
  );
}
