// Pure texts of the webhook pages: a delivery's status as the merchant reads it, one attempt in a
// line, and the time of the next try. Kept apart from React to be tested.
import type { WebhookAttempt, WebhookDelivery } from './webhooks-api.ts';

/** What the log says of a delivery. */
export type DeliveryState = 'delivered' | 'sending' | 'retrying' | 'failed';

/**
 * The state of a delivery. Note: the API has one `pending` status for a first send, a retry after
 * a failure and a redelivery; only a failed last attempt makes it a retry.
 */
export function deliveryState(
  delivery: Pick<WebhookDelivery, 'status' | 'attemptCount' | 'deliveredAt'>,
): DeliveryState {
  if (delivery.status === 'delivered') return 'delivered';
  if (delivery.status === 'failed') return 'failed';
  return delivery.attemptCount === 0 || delivery.deliveredAt !== null ? 'sending' : 'retrying';
}

/** Tone of the state's badge (the order-status colours of the admin pages). */
export function deliveryTone(state: DeliveryState): 'success' | 'warning' | 'danger' {
  if (state === 'delivered') return 'success';
  return state === 'failed' ? 'danger' : 'warning';
}

/** "HTTP 200 · 35 ms", "No response · 10000 ms · timed out". */
export function attemptSummary(
  attempt: Pick<WebhookAttempt, 'statusCode' | 'latencyMs' | 'error'>,
): string {
  const parts = [
    attempt.statusCode === null ? 'No response' : `HTTP ${attempt.statusCode}`,
    `${Math.round(attempt.latencyMs)} ms`,
  ];
  if (attempt.error) parts.push(attempt.error);
  return parts.join(' · ');
}

/** The last attempt of a delivery in one line, or "Not sent yet". */
export function lastAttemptSummary(delivery: Pick<WebhookDelivery, 'attempts'>): string {
  const last = delivery.attempts.at(-1);
  return last ? attemptSummary(last) : 'Not sent yet';
}

/** When the next try happens: "—" when none is planned, "now" when it is due. */
export function nextAttemptText(nextAttemptAt: string | null, now = Date.now()): string {
  if (nextAttemptAt === null) return '—';
  const at = Date.parse(nextAttemptAt);
  if (Number.isNaN(at)) return '—';
  return at <= now ? 'now' : new Date(at).toLocaleString();
}
