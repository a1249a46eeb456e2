// Where a paid order's money went (GET /api/orders/{id}/forwarding), the manual retry of a stopped
// forwarding, and the texts of the orders page: the forwarding badge and the stock warning.
import * as v from 'valibot';
import { apiRequest } from '../lib/api.ts';

/** The part of the forwarding answer the orders page shows. */
export const ForwardingSchema = v.object({
  /** none, forwarding, completed, retrying (will retry) or failed (stopped). */
  status: v.string(),
  lastError: v.nullable(v.string()),
  nextAttemptAt: v.nullable(v.string()),
  forwardedAt: v.nullable(v.string()),
});
/** An order's forwarding. */
export type Forwarding = v.InferOutput<typeof ForwardingSchema>;

const forwardingPath = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}/forwarding`;

/** GET /api/orders/{id}/forwarding (owner only). */
export async function fetchForwarding(orderId: string): Promise<Forwarding> {
  return v.parse(ForwardingSchema, await apiRequest('GET', forwardingPath(orderId)));
}

/** POST /api/orders/{id}/forwarding/retry: 409 unless forwarding has failed. */
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
export type ForwardingLabel = 'forwarded' | 'pending' | 'retrying' | 'failed';

/** The badge of a forwarding status ('none' and 'forwarding' are both still on their way). */
export function forwardingLabel(status: string): ForwardingLabel {
  if (status === 'completed') return 'forwarded';
  if (status === 'retrying' || status === 'failed') return status;
  return 'pending';
}

/** True while the status can still change by itself (the page re-reads it). */
export function isForwardingUnsettled(status: string): boolean {
  return status !== 'completed' && status !== 'failed';
}

/** One line of `metadata.stockShortfall`. */
export interface StockShortfall {
  productId: string;
  title: string;
  ordered: number;
  available: number;
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
