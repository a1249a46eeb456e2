// Fulfilment of paid orders: the carrier and tracking a merchant enters when an order ships, the
// shipment as the API answers it, and the order list's search and filters (shared by the API's
// query schema and the admin's URL).
import * as v from 'valibot';
import { maxChars } from './limits.ts';
import { ORDER_STATUSES } from './status.ts';

/** Longest carrier name, tracking number and tracking URL, in characters. */
export const SHIPMENT_LIMITS = { carrier: 60, trackingNumber: 100, trackingUrl: 500 } as const;

/** Texts of the shipment form and route. */
export const FULFILMENT_MESSAGES = {
  carrierRequired: 'Carrier is required',
  trackingNumberRequired: 'Tracking number is required',
  trackingNumberFormat:
    'Tracking number may contain only letters, digits, spaces, hyphens, dots and slashes',
  trackingUrlHttps: 'Tracking URL must be an https:// address',
  notPaid: 'Only a paid order can be marked shipped',
  reversed: 'The payment of this order was reversed; it cannot be marked shipped',
  shipped: 'Order marked shipped',
  updated: 'Tracking updated',
  unchanged: 'The order already has this tracking',
} as const;

/** Order statuses a shipment can be recorded on (a paid order, or one already shipped or done). */
export const SHIPPABLE_STATUSES = ['paid', 'processing', 'shipped', 'completed'] as const;

/** True for an https URL a browser can open (no credentials in it). */
export function isHttpsUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password;
}

const trimmedRequired = (message: string, label: string, max: number) =>
  v.pipe(v.optional(v.string(message), ''), v.trim(), v.nonEmpty(message), maxChars(label, max));

/** Body of POST /api/orders/{id}/shipment (and the admin's "Mark as shipped" form). */
export const MarkShippedSchema = v.object({
  carrier: trimmedRequired(FULFILMENT_MESSAGES.carrierRequired, 'Carrier', SHIPMENT_LIMITS.carrier),
  trackingNumber: v.pipe(
    trimmedRequired(
      FULFILMENT_MESSAGES.trackingNumberRequired,
      'Tracking number',
      SHIPMENT_LIMITS.trackingNumber,
    ),
    // Note: empty passes here: 'required' already said so.
    v.regex(/^(?:[\p{L}\p{N}][\p{L}\p{N} ./-]*)?$/u, FULFILMENT_MESSAGES.trackingNumberFormat),
  ),
  // Note: an empty field means no link (the form sends what was typed).
  trackingUrl: v.pipe(
    v.optional(v.nullable(v.string(FULFILMENT_MESSAGES.trackingUrlHttps))),
    v.transform((url) => url?.trim() || undefined),
    v.optional(
      v.pipe(
        v.string(),
        maxChars('Tracking URL', SHIPMENT_LIMITS.trackingUrl),
        v.check(isHttpsUrl, FULFILMENT_MESSAGES.trackingUrlHttps),
      ),
    ),
  ),
});
/** A validated shipment. */
export type MarkShippedInput = v.InferOutput<typeof MarkShippedSchema>;

/** An order's shipment as the API answers it (null until the order is marked shipped). */
export const ShipmentSchema = v.object({
  carrier: v.string(),
  trackingNumber: v.string(),
  trackingUrl: v.nullable(v.string()),
  shippedAt: v.pipe(v.string(), v.isoTimestamp()),
});
/** An order's shipment. */
export type Shipment = v.InferOutput<typeof ShipmentSchema>;

/** What marking an order shipped did: first marked, tracking changed, or nothing new. */
export const SHIPMENT_OUTCOMES = ['shipped', 'updated', 'unchanged'] as const;
/** One outcome of marking an order shipped. */
export type ShipmentOutcome = (typeof SHIPMENT_OUTCOMES)[number];

/** The tracking link of a shipment, only when it is https (a stored value is checked again). */
export function trackingLinkOf(shipment: Pick<Shipment, 'trackingUrl'>): string | null {
  return shipment.trackingUrl && isHttpsUrl(shipment.trackingUrl) ? shipment.trackingUrl : null;
}

/** Payment exceptions the order list can filter on. */
export const ORDER_EXCEPTIONS = ['underpaid', 'overpaid', 'paid_late', 'oversold'] as const;
/** One payment exception. */
export type OrderException = (typeof ORDER_EXCEPTIONS)[number];

/** Longest search text of the order list; largest page and the default one. */
export const ORDER_LIST_LIMITS = { search: 200, maxPage: 500, defaultPage: 100 } as const;

const dateOnly = (label: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date (YYYY-MM-DD)`),
    v.check((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), `${label} is not a date`),
  );

/**
 * The order list's search and filters, as query strings: free text (an email, an order id or its
 * short number, an external order id), status, payment exception, store, one customer's email
 * address and a date range (whole days, UTC, both ends included).
 */
export const OrderListFiltersSchema = v.object({
  q: v.optional(v.pipe(v.string(), v.trim(), maxChars('Search', ORDER_LIST_LIMITS.search))),
  status: v.optional(
    v.picklist(ORDER_STATUSES, `status must be one of ${ORDER_STATUSES.join(', ')}`),
  ),
  exception: v.optional(
    v.picklist(ORDER_EXCEPTIONS, `exception must be one of ${ORDER_EXCEPTIONS.join(', ')}`),
  ),
  storeId: v.optional(v.pipe(v.string(), v.maxLength(100, 'storeId is too long'))),
  /** One customer's orders: the email address exactly, any case (`q` finds it inside longer ones too). */
  customerEmail: v.optional(
    v.pipe(v.string(), v.trim(), maxChars('customerEmail', ORDER_LIST_LIMITS.search)),
  ),
  from: v.optional(dateOnly('from')),
  to: v.optional(dateOnly('to')),
});
/** Validated order list filters. */
export type OrderListFilters = v.InferOutput<typeof OrderListFiltersSchema>;

/** Kinds of a step on an order's timeline. */
export const TIMELINE_KINDS = [
  'created',
  'payment',
  'forwarded',
  'webhook',
  'mail',
  'shipped',
] as const;
/** One kind of timeline step. */
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

const isoTime = v.pipe(v.string(), v.isoTimestamp());

/** One webhook delivery of an order, as its page lists it. */
export const OrderWebhookSchema = v.object({
  id: v.string(),
  eventType: v.string(),
  /** pending, delivered or failed. */
  status: v.string(),
  attempts: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  lastStatusCode: v.nullable(v.number()),
  lastError: v.nullable(v.string()),
  createdAt: isoTime,
  deliveredAt: v.nullable(isoTime),
});
/** One webhook delivery of an order. */
export type OrderWebhook = v.InferOutput<typeof OrderWebhookSchema>;

/** One step of an order's timeline, oldest first. */
export const TimelineEntrySchema = v.object({
  at: isoTime,
  kind: v.picklist(TIMELINE_KINDS),
  title: v.string(),
  detail: v.nullable(v.string()),
  /** A chain transaction the step is about (payment, forwarding leg). */
  txHash: v.nullable(v.string()),
});
/** One step of an order's timeline. */
export type TimelineEntry = v.InferOutput<typeof TimelineEntrySchema>;

/** One USDC transfer the indexer saw arrive at the order's deposit address. */
export const OrderDepositSchema = v.object({
  txHash: v.string(),
  /** USDC, 6 decimals. */
  amount: v.string(),
  blockNumber: v.string(),
  at: isoTime,
});
/** One incoming transfer of an order. */
export type OrderDeposit = v.InferOutput<typeof OrderDepositSchema>;

/**
 * Answer of GET /api/orders/{id}/activity: the transfers that reached the deposit address, the
 * order's webhooks and its timeline.
 */
export const OrderActivitySchema = v.object({
  deposits: v.array(OrderDepositSchema),
  webhooks: v.array(OrderWebhookSchema),
  timeline: v.array(TimelineEntrySchema),
});
/** An order's webhooks and timeline. */
export type OrderActivity = v.InferOutput<typeof OrderActivitySchema>;

/** The answer of POST /api/orders/{id}/shipment (the order is the API's order view). */
export const SHIPMENT_OUTCOME_TEXT: Record<ShipmentOutcome, string> = {
  shipped: FULFILMENT_MESSAGES.shipped,
  updated: FULFILMENT_MESSAGES.updated,
  unchanged: FULFILMENT_MESSAGES.unchanged,
};
