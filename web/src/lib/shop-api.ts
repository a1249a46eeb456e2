// The shopper's calls (docs/api.md#shopper-routes), each response checked against the shared schema
// so a contract drift shows as one clear error instead of a half-drawn page.
import {
  CreatedOrderResponseSchema,
  type CreateOrder,
  type CreateUniversalOrder,
  type DiscountRule,
  DiscountRuleSchema,
  type Order,
  OrderSchema,
  type PaymentStatusResponse,
  PaymentStatusResponseSchema,
  type PaymentWalletResponse,
  PaymentWalletResponseSchema,
  type ShippingMethod,
  UniversalOrderResponseSchema,
} from '@store/shared';
import * as v from 'valibot';
import { apiGet, apiRequest } from './api.ts';
import { buyerHeaders, rememberReviewToken } from './review-tokens.ts';

/** The wallet a shopper pays to, with the end of its payment window when the server sends it. */
export type AssignedWallet = PaymentWalletResponse & { expiredAt?: string | null };

const AssignedWalletSchema = v.object({
  paymentWallet: v.object({
    ...PaymentWalletResponseSchema.entries,
    expiredAt: v.nullish(v.string()),
  }),
});

export { fetchProduct, fetchPublishedProducts, fetchStore, fetchStores } from './catalogue-api.ts';

/**
 * GET /api/orders/{id}: in full in the browser that placed the order (it sends the order's buyer
 * token) or with `buyerToken` (a mail's link carries it), else without the shopper's personal data.
 */
export async function fetchOrder(orderId: string, buyerToken?: string): Promise<Order> {
  return v.parse(
    OrderSchema,
    await apiGet(['/api/orders', orderId], buyerHeaders(orderId, buyerToken)),
  );
}

/** POST /api/orders with the chosen shipping method (the server recomputes the totals). */
export async function createOrder(
  body: CreateOrder & { shippingMethod: ShippingMethod },
  idempotencyKey: string,
): Promise<Order> {
  const created = v.parse(
    CreatedOrderResponseSchema,
    await apiRequest('POST', '/api/orders', body, { idempotencyKey }),
  );
  // Note: the buyer's review token comes only with the new order; it is kept, not shown.
  rememberReviewToken(created.id, created.reviewToken);
  return created;
}

/**
 * POST /api/discount-codes/check: what a code takes off at the store's checkout, or an ApiError
 * with the shopper's reason (unknown, inactive, expired, used up).
 */
export async function checkDiscountCode(
  storeId: string,
  code: string,
  customerEmail?: string,
): Promise<DiscountRule> {
  const body = { storeId, code, ...(customerEmail ? { customerEmail } : {}) };
  return v.parse(DiscountRuleSchema, await apiRequest('POST', '/api/discount-codes/check', body));
}

/** POST /api/universal-orders from the checkout form; answers the new order's id. */
export async function createUniversalOrder(
  body: CreateUniversalOrder,
  idempotencyKey: string,
): Promise<string> {
  const response = await apiRequest('POST', '/api/universal-orders', body, { idempotencyKey });
  const { order } = v.parse(UniversalOrderResponseSchema, response);
  rememberReviewToken(order.id, order.reviewToken);
  return order.id;
}

/** POST /api/orders/{id}/assign-payment-wallet: the same order always gets the same wallet. */
export async function assignPaymentWallet(
  orderId: string,
  idempotencyKey: string,
): Promise<AssignedWallet> {
  const path = `/api/orders/${encodeURIComponent(orderId)}/assign-payment-wallet`;
  const body = { paymentChain: 'base' };
  const response = await apiRequest('POST', path, body, { idempotencyKey });
  return v.parse(AssignedWalletSchema, response).paymentWallet;
}

/** GET /api/check-payment-status/{orderId}. */
export async function checkPaymentStatus(orderId: string): Promise<PaymentStatusResponse> {
  return v.parse(PaymentStatusResponseSchema, await apiGet(['/api/check-payment-status', orderId]));
}

/** A file of a paid order, with its signed link (valid until `expiresAt`). */
export interface OrderDownload {
  productId: string;
  title: string;
  fileName: string;
  fileBytes: number;
  url: string;
  expiresAt: string;
}

/**
 * GET /api/orders/{id}/downloads: the paid order's files, for the browser holding its token or a
 * receipt link's `token`.
 */
export async function fetchDownloads(orderId: string, token?: string): Promise<OrderDownload[]> {
  const answer = (await apiGet(
    ['/api/orders', orderId, 'downloads'],
    buyerHeaders(orderId, token),
  )) as {
    downloads: OrderDownload[];
  };
  return answer.downloads;
}
