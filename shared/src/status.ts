// Order and payment status names (docs/payments.md#order-status); the state machine is elsewhere.

/**
 * Order statuses in lifecycle order. `reversed`: the payment that paid the order was removed by a
 * chain reorganisation deeper than the confirmation depth (do not ship; it becomes `paid` again if
 * the payment reaches depth again).
 */
export const ORDER_STATUSES = [
  'pending',
  'paid',
  'processing',
  'shipped',
  'completed',
  'reversed',
] as const;
/** An order status. */
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Where an order came from: a store's checkout, a checkout session an integrator's server created,
 * a payment link the store signed, or a hand-made (unsigned) universal-checkout link. The first
 * three belong to their store (its orders, figures, notices and books); an unsigned link's order
 * belongs to no store of ours.
 */
export const ORDER_SOURCES = [
  'storefront',
  'checkout_session',
  'signed_link',
  'unsigned_link',
] as const;
/** Where an order came from. */
export type OrderSource = (typeof ORDER_SOURCES)[number];

/** How the admin names where an order came from. */
export const ORDER_SOURCE_LABELS: Readonly<Record<OrderSource, string>> = {
  storefront: 'Storefront',
  checkout_session: 'Checkout session (API)',
  signed_link: 'Signed payment link',
  unsigned_link: 'Unsigned payment link',
};

/**
 * Orders of a universal-checkout link (signed or not): their payee, webhook URL and branding are
 * the link's, and what arrives on them goes on at the window's end (no merchant decides first).
 */
export function isLinkOrder(source: OrderSource): boolean {
  return source === 'signed_link' || source === 'unsigned_link';
}

/**
 * The path of an order's payment page: a universal link's own page, else the store payment page
 * (the store comes from the order). It shows no personal data without the buyer's token, so it
 * may be mailed.
 */
export function paymentPagePath(order: { id: string; source: OrderSource }): string {
  return isLinkOrder(order.source) ? `/universal-payment/${order.id}` : `/payment/${order.id}`;
}

/** Statuses whose orders count as revenue. */
export const REVENUE_STATUSES = ['paid', 'processing', 'shipped', 'completed'] as const;
/** A status that counts as revenue. */
export type RevenueStatus = (typeof REVENUE_STATUSES)[number];

/** Transitions a merchant may make by hand; pending -> paid belongs to the payment system. */
export const MERCHANT_ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: [],
  paid: ['processing'],
  processing: ['shipped'],
  shipped: ['completed'],
  completed: [],
  reversed: [],
};

/** True when a merchant may move an order from `from` to `to` (paid -> processing -> shipped -> completed). */
export function canTransitionOrder(from: OrderStatus, to: OrderStatus): boolean {
  return MERCHANT_ORDER_TRANSITIONS[from].includes(to);
}

/** True when the status is a known order status. */
export function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

/** True when orders with this status count as revenue. */
export function isRevenueStatus(status: string): status is RevenueStatus {
  return (REVENUE_STATUSES as readonly string[]).includes(status);
}

/** Badge tone of an order status: paid green, pending amber, reversed red, others grey. */
export function orderStatusTone(status: string): 'success' | 'warning' | 'neutral' | 'danger' {
  if (status === 'reversed') return 'danger';
  if (status === 'paid') return 'success';
  if (status === 'pending') return 'warning';
  return 'neutral';
}

/** Payment statuses of the payment pages (client side). */
export const CLIENT_PAYMENT_STATUSES = ['waiting', 'processing', 'confirmed', 'failed'] as const;
/** A client payment status. */
export type ClientPaymentStatus = (typeof CLIENT_PAYMENT_STATUSES)[number];

/** Badge labels of the client payment statuses. */
export const CLIENT_PAYMENT_STATUS_LABELS = {
  waiting: 'Waiting for Payment',
  processing: 'Processing Payment',
  confirmed: 'Payment Confirmed',
  failed: 'Payment Failed',
} as const satisfies Record<ClientPaymentStatus, string>;

/**
 * The badge of a payment seen in a block but short of the depth the order needs: the page takes
 * the shopper on at once, and says 'Confirmed' only at depth.
 */
export const DETECTED_PAYMENT_LABEL = 'Payment Detected';

/** Payment statuses the API reports from GET /api/check-payment-status/{orderId}. */
export const API_PAYMENT_STATUSES = [
  'waiting',
  'detected_pending_processing',
  'received',
  'underpaid',
  'expired',
  'forwarded',
  'reversed',
] as const;
/** An API payment status. */
export type ApiPaymentStatus = (typeof API_PAYMENT_STATUSES)[number];

/** API statuses the store payment page treats as confirmed (besides paymentDetected true). */
export const CONFIRMED_API_PAYMENT_STATUSES = ['detected_pending_processing', 'received'] as const;

/** True when the status is a known API payment status. */
export function isApiPaymentStatus(value: string): value is ApiPaymentStatus {
  return (API_PAYMENT_STATUSES as readonly string[]).includes(value);
}
