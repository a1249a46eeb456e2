// The webhook payloads (one schema per event type, versioned) and one example of each: the API
// builds what it sends from these types, and the OpenAPI document and the docs page show them.
import * as v from 'valibot';
import { SHIPMENT_LIMITS } from '../fulfilment.ts';
import { PAYMENT_EXCEPTIONS, PAYMENT_STATES } from '../payment-state.ts';
import { ORDER_STATUSES } from '../status.ts';
import { OptionalText, UsdcAmountStringSchema } from './common.ts';
import { OrderItemSchema, ShippingAddressSchema } from './order.ts';

/**
 * Version of the payload shape; raised when a field changes meaning or disappears. 2:
 * `paymentStatus` says only where the payment is (waiting, detected, received, expired, reversed)
 * and `paymentException` alone what went wrong (version 1's underpaid, overpaid and paid_late
 * statuses are waiting or received with that exception).
 */
export const WEBHOOK_PAYLOAD_VERSION = 2 as const;

/** Event types a merchant or integrator can receive. */
export const WEBHOOK_EVENT_TYPES = [
  'order.paid',
  'order.underpaid',
  'order.overpaid',
  'order.paid_late',
  'order.expired',
  'order.forwarded',
  'order.payment_reversed',
  'order.shipped',
  'order.refund_requested',
  'order.refunded',
] as const;
/** One event type. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What each event means to the receiver, for the docs and the OpenAPI document. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'order.paid':
    'The order is paid (also when overpaid or paid late): fulfil on this event, once per order.',
  'order.underpaid':
    'Part of the total arrived (at any time, before or after the payment window closed); the order is not paid.',
  'order.overpaid': 'More than the total arrived; sent beside order.paid, or alone for a top-up.',
  'order.paid_late': 'The payment arrived after the payment window; sent beside order.paid.',
  'order.expired': 'Nothing arrived within the payment window.',
  'order.forwarded':
    'One forwarding round is confirmed on chain: the merchant share and the fee left the deposit address.',
  'order.payment_reversed':
    'The payment transaction left the chain (a reorganisation); do not fulfil until order.paid comes again.',
  'order.shipped':
    'The merchant marked the order shipped: its carrier and tracking; sent again with the new tracking when the merchant changes it.',
  'order.refund_requested':
    'A refund to the payer was opened (an overpaid excess, an underpaid or expired order, or the merchant refunding): its amount, source and reason; the payer confirms the address through the claim link.',
  'order.refunded':
    'A refund is confirmed on chain: the amount reached the address the payer confirmed (its transaction hash).',
};

const timestamp = v.pipe(v.string(), v.isoTimestamp());
const txHash = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{64}$/));
const address = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/));

/** The deposit address of the order and what it expected, received and forwarded (USDC). */
export const WebhookPaymentWalletSchema = v.object({
  address,
  expectedAmount: UsdcAmountStringSchema,
  receivedAmount: UsdcAmountStringSchema,
  forwardedAmount: UsdcAmountStringSchema,
  storePaymentAddress: address,
});

/** One confirmed forwarding round, as `order.forwarded` reports it (USDC amounts, 6 decimals). */
export const WebhookForwardingSchema = v.object({
  round: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
  amount: UsdcAmountStringSchema,
  merchantAmount: UsdcAmountStringSchema,
  feeAmount: UsdcAmountStringSchema,
  merchantAddress: address,
  merchantTxHash: v.nullable(txHash),
  feeTxHash: v.nullable(txHash),
  forwardedAt: timestamp,
});
/** The shipment of `order.shipped`: carrier, tracking number and (https) tracking URL. */
export const WebhookShipmentSchema = v.object({
  carrier: v.pipe(v.string(), v.maxLength(SHIPMENT_LIMITS.carrier)),
  trackingNumber: v.pipe(v.string(), v.maxLength(SHIPMENT_LIMITS.trackingNumber)),
  trackingUrl: v.nullable(v.pipe(v.string(), v.url(), v.maxLength(SHIPMENT_LIMITS.trackingUrl))),
  shippedAt: timestamp,
  /** True when this event changes the tracking of an order already reported shipped. */
  updated: v.boolean(),
});
/**
 * The refund of `order.refund_requested` and `order.refunded` (USDC, 6 decimals): from the deposit
 * address (the platform sends it) or the merchant's payout wallet; the address once confirmed.
 */
export const WebhookRefundSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  source: v.picklist(['deposit', 'merchant']),
  reason: v.picklist(['excess', 'underpaid', 'expired', 'oversold', 'merchant', 'undelivered']),
  amount: UsdcAmountStringSchema,
  status: v.picklist(['awaiting_address', 'ready', 'sending', 'refunded', 'canceled', 'failed']),
  toAddress: v.nullable(address),
  txHash: v.nullable(txHash),
});
/** A refund as the webhooks report it. */
export type WebhookRefund = v.InferOutput<typeof WebhookRefundSchema>;

/** The shipment of `order.shipped`. */
export type WebhookShipment = v.InferOutput<typeof WebhookShipmentSchema>;

/** One forwarding round of `order.forwarded`. */
export type WebhookForwarding = v.InferOutput<typeof WebhookForwardingSchema>;

// Note: flat, the order's fields at the top level (docs/webhooks.md#payload), so receivers of the
// documented payload keep working; the event type, its time, the version and the amounts come
// beside them.
const payloadEntries = {
  version: v.literal(WEBHOOK_PAYLOAD_VERSION),
  timestamp,
  orderId: v.pipe(v.string(), v.uuid()),
  externalOrderId: OptionalText,
  /** The checkout session (cs_…) the order came from; null for other orders. */
  checkoutSessionId: v.nullable(v.string()),
  /** The store the order pays (a signed link's and a session's included); null for an unsigned link's order. */
  storeId: v.nullable(v.string()),
  /** True when the order's terms are the merchant's own (store catalogue, signed link or session). */
  signed: v.boolean(),
  status: v.picklist(ORDER_STATUSES),
  /** Where the payment is: waiting, detected, received (paid), expired or reversed. */
  paymentStatus: v.picklist(PAYMENT_STATES),
  /** What went wrong with the payment, apart from its state: none, underpaid, overpaid, paid_late, accepted_underpaid. */
  paymentException: v.picklist(PAYMENT_EXCEPTIONS),
  paymentTxHash: v.nullable(txHash),
  paymentWallet: WebhookPaymentWalletSchema,
  customer: v.object({ email: v.string(), shippingAddress: v.nullable(ShippingAddressSchema) }),
  items: v.array(OrderItemSchema),
  subtotalUsdc: UsdcAmountStringSchema,
  shippingUsdc: UsdcAmountStringSchema,
  /**
   * The tax on the order: subtotalUsdc + shippingUsdc + taxUsdc = totalUsdc, or, when the store's
   * prices include the tax, subtotalUsdc + shippingUsdc = totalUsdc (the tax is inside).
   */
  taxUsdc: UsdcAmountStringSchema,
  totalUsdc: UsdcAmountStringSchema,
  /** When the payment was received; null before (underpaid, expired). */
  completedAt: v.nullable(timestamp),
  /** Orders paid over HTTP 402 (x402) only: the resource paid for and the payer (the signer). */
  x402: v.optional(v.object({ resource: v.string(), payer: v.nullable(address) })),
};

const eventSchema = <T extends WebhookEventType>(type: T) =>
  v.object({ type: v.literal(type), ...payloadEntries });

/** The payload of each event type. */
export const WEBHOOK_PAYLOAD_SCHEMAS = {
  'order.paid': eventSchema('order.paid'),
  'order.underpaid': eventSchema('order.underpaid'),
  'order.overpaid': eventSchema('order.overpaid'),
  'order.paid_late': eventSchema('order.paid_late'),
  'order.expired': eventSchema('order.expired'),
  'order.forwarded': v.object({
    type: v.literal('order.forwarded'),
    ...payloadEntries,
    forwarding: WebhookForwardingSchema,
  }),
  'order.payment_reversed': eventSchema('order.payment_reversed'),
  'order.shipped': v.object({
    type: v.literal('order.shipped'),
    ...payloadEntries,
    shipment: WebhookShipmentSchema,
  }),
  'order.refund_requested': v.object({
    type: v.literal('order.refund_requested'),
    ...payloadEntries,
    refund: WebhookRefundSchema,
  }),
  'order.refunded': v.object({
    type: v.literal('order.refunded'),
    ...payloadEntries,
    refund: WebhookRefundSchema,
  }),
} as const;

/** Any webhook payload, told apart by `type`. */
export const WebhookPayloadSchema = v.variant('type', Object.values(WEBHOOK_PAYLOAD_SCHEMAS));
/** A webhook payload as a receiver gets it. */
export type WebhookPayload = v.InferOutput<typeof WebhookPayloadSchema>;
/** The payload of one event type. */
export type WebhookPayloadOf<T extends WebhookEventType> = v.InferOutput<
  (typeof WEBHOOK_PAYLOAD_SCHEMAS)[T]
>;

const exampleAddress = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+1 555 0100',
  street: '12 Analytical Way',
  city: 'Portland',
  country: 'US' as const,
  state: 'OR' as const,
  zipCode: '97201',
};

const exampleBase = {
  version: WEBHOOK_PAYLOAD_VERSION,
  timestamp: '2026-01-15T10:04:12.000Z',
  orderId: '6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f',
  externalOrderId: 'SHOP-1042',
  checkoutSessionId: null,
  storeId: null,
  // A hand-made checkout link's order: anyone could have made or edited its terms.
  signed: false,
  status: 'paid',
  paymentStatus: 'received',
  paymentException: 'none',
  paymentTxHash: `0x${'3b'.repeat(32)}`,
  paymentWallet: {
    address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    expectedAmount: '25.00',
    receivedAmount: '25.000000',
    forwardedAmount: '0.000000',
    storePaymentAddress: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  },
  customer: { email: 'ada@example.com', shippingAddress: exampleAddress },
  items: [
    {
      productId: 'universal-1736935200000-k3j9',
      title: 'Notebook',
      priceUsdc: '12.50',
      quantity: 2,
    },
  ],
  subtotalUsdc: '25.00',
  shippingUsdc: '0.00',
  taxUsdc: '0.00',
  totalUsdc: '25.00',
  completedAt: '2026-01-15T10:04:10.000Z',
} satisfies Omit<WebhookPayloadOf<'order.paid'>, 'type'>;

/** One example payload of each event type (valid against its schema; a test checks it). */
export const WEBHOOK_EXAMPLES: { [T in WebhookEventType]: WebhookPayloadOf<T> } = {
  'order.paid': { type: 'order.paid', ...exampleBase },
  'order.underpaid': {
    type: 'order.underpaid',
    ...exampleBase,
    status: 'pending',
    paymentStatus: 'waiting',
    paymentException: 'underpaid',
    paymentWallet: { ...exampleBase.paymentWallet, receivedAmount: '20.000000' },
    completedAt: null,
  },
  'order.overpaid': {
    type: 'order.overpaid',
    ...exampleBase,
    paymentStatus: 'received',
    paymentException: 'overpaid',
    paymentWallet: { ...exampleBase.paymentWallet, receivedAmount: '30.000000' },
  },
  'order.paid_late': {
    type: 'order.paid_late',
    ...exampleBase,
    paymentStatus: 'received',
    paymentException: 'paid_late',
  },
  'order.expired': {
    type: 'order.expired',
    ...exampleBase,
    status: 'pending',
    paymentStatus: 'expired',
    paymentTxHash: null,
    paymentWallet: { ...exampleBase.paymentWallet, receivedAmount: '0.000000' },
    completedAt: null,
  },
  'order.forwarded': {
    type: 'order.forwarded',
    ...exampleBase,
    timestamp: '2026-01-15T10:05:40.000Z',
    paymentWallet: { ...exampleBase.paymentWallet, forwardedAmount: '25.000000' },
    forwarding: {
      round: 1,
      amount: '25.000000',
      merchantAmount: '24.500000',
      feeAmount: '0.500000',
      merchantAddress: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      merchantTxHash: `0x${'4c'.repeat(32)}`,
      feeTxHash: `0x${'5d'.repeat(32)}`,
      forwardedAt: '2026-01-15T10:05:38.000Z',
    },
  },
  'order.payment_reversed': {
    type: 'order.payment_reversed',
    ...exampleBase,
    timestamp: '2026-01-15T10:06:00.000Z',
    status: 'reversed',
    paymentStatus: 'reversed',
  },
  'order.shipped': {
    type: 'order.shipped',
    ...exampleBase,
    timestamp: '2026-01-16T09:30:00.000Z',
    status: 'shipped',
    paymentWallet: { ...exampleBase.paymentWallet, forwardedAmount: '25.000000' },
    shipment: {
      carrier: 'UPS',
      trackingNumber: '1Z999AA10123456784',
      trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
      shippedAt: '2026-01-16T09:30:00.000Z',
      updated: false,
    },
  },
  'order.refund_requested': {
    type: 'order.refund_requested',
    ...exampleBase,
    paymentStatus: 'received',
    paymentException: 'overpaid',
    paymentWallet: { ...exampleBase.paymentWallet, receivedAmount: '30.000000' },
    refund: {
      id: '0b7e3c9a-5d21-4f6e-8a4b-2c1d0e9f8a7b',
      source: 'deposit',
      reason: 'excess',
      amount: '5.000000',
      status: 'awaiting_address',
      toAddress: null,
      txHash: null,
    },
  },
  'order.refunded': {
    type: 'order.refunded',
    ...exampleBase,
    timestamp: '2026-01-15T11:20:00.000Z',
    paymentStatus: 'received',
    paymentException: 'overpaid',
    paymentWallet: {
      ...exampleBase.paymentWallet,
      receivedAmount: '30.000000',
      forwardedAmount: '30.000000',
    },
    refund: {
      id: '0b7e3c9a-5d21-4f6e-8a4b-2c1d0e9f8a7b',
      source: 'deposit',
      reason: 'excess',
      amount: '5.000000',
      status: 'refunded',
      toAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
      txHash: `0x${'6e'.repeat(32)}`,
    },
  },
};
