// Where a paid order's money went (GET /api/orders/{id}/forwarding), the manual retry of a stopped
// forwarding, and the texts of the orders page: the forwarding badge and the stock warning.
import { PAYMENT_EXCEPTIONS, type StockShortfall } from '@store/shared';
import * as v from 'valibot';
import { apiRequest } from '../lib/api.ts';

/** The part of the forwarding answer the orders page shows. */
export const ForwardingSchema = v.object({
  /**
   * none, forwarding, completed, retrying (will retry), waiting_relayer (waits for the platform's
   * relayer; resumes by itself, never counted as a failure), failed (stopped) or canceled (a reorg
   * took the payment away: nothing is forwarded unless it is mined again).
   */
  status: v.string(),
  lastError: v.nullable(v.string()),
  nextAttemptAt: v.nullable(v.string()),
  forwardedAt: v.nullable(v.string()),
});
/** An order's forwarding. */
export type Forwarding = v.InferOutput<typeof ForwardingSchema>;

/** The whole forwarding answer the order page shows: the deposit address, amounts and legs. */
export const ForwardingDetailSchema = v.object({
  ...ForwardingSchema.entries,
  depositAddress: v.string(),
  /** The deposit address's payment state (waiting, underpaid, received, overpaid, expired...). */
  paymentStatus: v.string(),
  /** What went wrong with the payment, as the server stored it (none, underpaid, overpaid...). */
  paymentException: v.picklist(PAYMENT_EXCEPTIONS),
  receivedAmount: v.string(),
  /** Every transfer seen, confirmed or not. */
  detectedAmount: v.optional(v.string()),
  forwardedAmount: v.string(),
  transfers: v.array(
    v.object({
      round: v.number(),
      leg: v.string(),
      to: v.string(),
      value: v.string(),
      status: v.string(),
      txHash: v.nullable(v.string()),
      confirmedAt: v.nullable(v.string()),
    }),
  ),
});
/** An order's forwarding with its deposit address and legs. */
export type ForwardingDetail = v.InferOutput<typeof ForwardingDetailSchema>;

const forwardingPath = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}/forwarding`;

/** GET /api/orders/{id}/forwarding (owner only). */
export async function fetchForwarding(orderId: string): Promise<Forwarding> {
  return v.parse(ForwardingSchema, await apiRequest('GET', forwardingPath(orderId)));
}

/** GET /api/orders/{id}/forwarding, whole (owner only). */
export async function fetchForwardingDetail(orderId: string): Promise<ForwardingDetail> {
  return v.parse(ForwardingDetailSchema, await apiRequest('GET', forwardingPath(orderId)));
}

/** POST /api/orders/{id}/forwarding/retry: 409 unless forwarding has failed or waits. */
export async function retryForwardingRequest(
  orderId: string,
  idempotencyKey: string,
): Promise<Forwarding> {
  const answer = await apiRequest('POST', `${forwardingPath(orderId)}/retry`, undefined, {
    idempotencyKey,
  });
  return v.parse(ForwardingSchema, answer);
}

/** What the badge says. */
export type ForwardingLabel = 'forwarded' | 'pending' | 'retrying' | 'failed' | 'canceled';

/** The status of a forwarding that waits for the platform's relayer (out of ETH, nonce trouble). */
export const WAITING_RELAYER = 'waiting_relayer';

/**
 * The badge of a forwarding status ('none' and 'forwarding' are both still on their way). One
 * waiting for the relayer reads 'retrying': it will go by itself, and its last error says why.
 */
export function forwardingLabel(status: string): ForwardingLabel {
  if (status === 'completed') return 'forwarded';
  if (status === 'retrying' || status === 'failed' || status === 'canceled') return status;
  if (status === WAITING_RELAYER) return 'retrying';
  return 'pending';
}

/**
 * What the merchant reads under the badge: the last error as the API gives it, and for a
 * forwarding waiting for the relayer, that it is the platform's side and needs nothing from them.
 */
export function forwardingNote(
  forwarding: Pick<Forwarding, 'status' | 'lastError'>,
): string | null {
  if (forwarding.status === WAITING_RELAYER) {
    const reason = forwarding.lastError?.replace(/^waiting for relayer: /, '');
    return (
      "Waiting for the platform's relayer to pay the gas" +
      `${reason ? ` (${reason})` : ''}; your payment is safe and is forwarded by itself, ` +
      'nothing to do on your side'
    );
  }
  const label = forwardingLabel(forwarding.status);
  return label === 'retrying' || label === 'failed' || label === 'canceled'
    ? forwarding.lastError
    : null;
}

/** True while the status can still change by itself (the page re-reads it). */
export function isForwardingUnsettled(status: string): boolean {
  return status !== 'completed' && status !== 'failed' && status !== 'canceled';
}

/** "Stock ran out: 2 × Lamp could not be taken from stock — refund or restock". */
export function stockShortfallText(lines: readonly StockShortfall[]): string {
  // Note: `available` is what was left when the order was paid; the rest is what is missing.
  const missing = lines.map((line) => {
    const short = line.ordered - Math.max(line.available, 0);
    return `${short > 0 ? short : line.ordered} × ${line.title}`;
  });
  return `Stock ran out: ${missing.join(', ')} could not be taken from stock — refund or restock`;
}
