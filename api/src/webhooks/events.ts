// Webhook events and their payload (docs/webhooks.md#payload), built to the shared per-event
// schemas: the order's fields (flat, so integrators of the documented payload keep working) plus
// the event type, its time, the payload version and the amounts.
import {
  formatUsdcFull,
  isPaidState,
  type PaymentException,
  type PaymentState,
  parseUsdc,
  paymentPhase,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_PAYLOAD_VERSION,
  type WebhookEventType,
  type WebhookForwarding,
  type WebhookPayload,
  type WebhookRefund,
  type WebhookShipment,
  withCountry,
} from '@store/shared';
import type { orders, paymentWallets } from '../db/schema.ts';

export { WEBHOOK_EVENT_TYPES, type WebhookEventType };

/**
 * The events of a wallet transition. Note: `order.paid` is THE event to fulfil on and is sent
 * whenever an order becomes paid, overpaid or late ones included; `order.overpaid` and
 * `order.paid_late` come beside it to flag the exception (and overpaid alone when more arrives on
 * an order already paid). `detected` is not final and sends nothing.
 */
export function eventsForTransition(
  from: { state: PaymentState; exception: PaymentException },
  to: { state: PaymentState; exception: PaymentException },
): WebhookEventType[] {
  const before = paymentPhase(from.state, from.exception);
  const after = paymentPhase(to.state, to.exception);
  if (before === after) return [];
  const events: WebhookEventType[] = [];
  if (isPaidState(to.state) && !isPaidState(from.state)) events.push('order.paid');
  if (after === 'overpaid') events.push('order.overpaid');
  if (after === 'paid_late') events.push('order.paid_late');
  if (after === 'underpaid') events.push('order.underpaid');
  if (after === 'expired') events.push('order.expired');
  if (after === 'reversed') events.push('order.payment_reversed');
  return events;
}

/** One confirmed forwarding round, as `order.forwarded` reports it. */
export type ForwardingSummary = WebhookForwarding;

/** What `order.shipped` adds to the order row: whether it changes tracking already reported. */
export interface ShipmentEvent {
  updated: boolean;
}

type OrderRow = typeof orders.$inferSelect;
type WalletRow = typeof paymentWallets.$inferSelect;

/** The payload's bytes: serialised once here, then stored, signed and sent as they are. */
export function serializePayload(
  type: WebhookEventType,
  at: Date,
  order: OrderRow,
  wallet: WalletRow,
  forwarding?: ForwardingSummary,
  shipment?: ShipmentEvent,
  refund?: WebhookRefund,
): string {
  const base = {
    version: WEBHOOK_PAYLOAD_VERSION,
    timestamp: at.toISOString(),
    orderId: order.id,
    externalOrderId: order.metadata?.externalOrderId ?? wallet.externalOrderId ?? null,
    checkoutSessionId: order.metadata?.checkoutSessionId ?? null,
    storeId: order.storeId,
    // Whether the order's terms (items, prices, payee) are the merchant's own: true for a store's
    // catalogue, a session and a signed link, false for a hand-made universal link that anyone
    // could have made or edited.
    signed: order.source !== 'unsigned_link',
    // The order's status: 'paid' for order.paid and every event after it.
    status: order.status,
    paymentStatus: wallet.status,
    paymentException: wallet.exception,
    paymentTxHash: order.paymentTxHash ?? wallet.depositTxHash ?? null,
    paymentWallet: {
      address: wallet.walletAddress,
      expectedAmount: wallet.expectedAmountUsdc,
      receivedAmount: arrivedAmount(wallet),
      forwardedAmount: wallet.forwardedAmountUsdc,
      storePaymentAddress: wallet.storePaymentAddress,
    },
    customer: {
      email: order.customerEmail,
      shippingAddress: order.shippingAddress ? withCountry(order.shippingAddress) : null,
    },
    items: order.items,
    subtotalUsdc: order.subtotalUsdc,
    shippingUsdc: order.shippingUsdc,
    taxUsdc: order.taxUsdc,
    totalUsdc: order.totalUsdc,
    completedAt: wallet.paymentReceivedAt?.toISOString() ?? null,
    ...(order.metadata?.x402
      ? {
          x402: {
            resource: order.metadata.x402.resource,
            payer: order.metadata.x402.payer ?? null,
          },
        }
      : {}),
  };
  // Note: typed against the shared schemas: a missing or mistyped field fails to compile.
  const payload: WebhookPayload =
    type === 'order.forwarded'
      ? { type, ...base, forwarding: forwardingOf(forwarding) }
      : type === 'order.shipped'
        ? { type, ...base, shipment: shipmentOf(order, shipment) }
        : type === 'order.refund_requested' || type === 'order.refunded'
          ? { type, ...base, refund: refundOf(type, refund) }
          : { type, ...base };
  return JSON.stringify(payload);
}

/**
 * What reached the deposit address. Note: a wallet is underpaid as soon as part of the amount is
 * seen, before it reaches the confirmation depth, and no later event reports it again; its
 * confirmed amount alone would tell the receiver that nothing arrived.
 */
function arrivedAmount(wallet: WalletRow): string {
  if (wallet.exception !== 'underpaid') return wallet.receivedAmountUsdc;
  const detected = parseUsdc(wallet.detectedAmountUsdc);
  if (detected > parseUsdc(wallet.receivedAmountUsdc)) return formatUsdcFull(detected);
  return wallet.receivedAmountUsdc;
}

function forwardingOf(forwarding: ForwardingSummary | undefined): ForwardingSummary {
  if (!forwarding) throw new Error('order.forwarded needs its forwarding round');
  return forwarding;
}

function refundOf(type: WebhookEventType, refund: WebhookRefund | undefined): WebhookRefund {
  if (!refund) throw new Error(`${type} needs its refund`);
  return refund;
}

/** The order's shipment as `order.shipped` reports it, from the row the event was written with. */
function shipmentOf(order: OrderRow, event: ShipmentEvent | undefined): WebhookShipment {
  if (!order.shippedAt || !order.shippingCarrier || !order.trackingNumber)
    throw new Error('order.shipped needs a shipped order');
  return {
    carrier: order.shippingCarrier,
    trackingNumber: order.trackingNumber,
    trackingUrl: order.trackingUrl,
    shippedAt: order.shippedAt.toISOString(),
    updated: event?.updated ?? false,
  };
}
