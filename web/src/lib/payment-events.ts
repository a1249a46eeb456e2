// The payment status pushed by the API (GET /api/orders/{id}/payment-events, Server-Sent Events):
// each event is the view the 10 s poll gets, so the payment page handles both the same way. The
// browser's EventSource reconnects by itself; while the channel is not open the poll carries on.
import { type PaymentStatusResponse, PaymentStatusResponseSchema } from '@store/shared';
import { useEffect, useRef, useState } from 'react';
import * as v from 'valibot';

/** The stream's URL for an order. */
export function paymentEventsUrl(orderId: string): string {
  return `/api/orders/${encodeURIComponent(orderId)}/payment-events`;
}

/** API statuses after which the API ends the stream (the order is paid). */
const FINAL_STATUSES = new Set(['received', 'forwarded']);

/** True for a view after which nothing more is pushed. */
export function isFinalPaymentView(view: Pick<PaymentStatusResponse, 'status'>): boolean {
  return FINAL_STATUSES.has(view.status);
}

/**
 * How long after a refused stream (429, 503: the browser's EventSource does not reconnect after an
 * error answer) the page asks for it again; the API's Retry-After says 30 s.
 */
export const REOPEN_REFUSED_STREAM_MS = 30_000;

/**
 * Listens to the order's payment stream while `enabled`, calling `onView` with each view.
 * Returns true while the channel is open (the page's poll then waits).
 * Note: a refused stream (429, 503) or a browser without EventSource leaves the poll in charge; a
 * refused one is asked for again after REOPEN_REFUSED_STREAM_MS.
 */
export function usePaymentEvents(
  orderId: string,
  enabled: boolean,
  onView: (view: PaymentStatusResponse) => void,
): boolean {
  const [open, setOpen] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const handler = useRef(onView);
  handler.current = onView;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` asks for the stream again after a refusal.
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(paymentEventsUrl(orderId));
    let reopen: ReturnType<typeof setTimeout> | undefined;
    source.onopen = () => setOpen(true);
    source.onerror = () => {
      setOpen(false);
      // Note: CLOSED after an error is a refusal (the browser retries a dropped stream itself).
      if (source.readyState === EventSource.CLOSED && reopen === undefined)
        reopen = setTimeout(() => setAttempt((n) => n + 1), REOPEN_REFUSED_STREAM_MS);
    };
    source.addEventListener('status', (event) => {
      const parsed = v.safeParse(PaymentStatusResponseSchema, safeJson(event.data));
      if (!parsed.success) {
        console.warn('Unreadable payment status event', event.data);
        return;
      }
      handler.current(parsed.output);
      // Note: the server ends the stream after a final view; closing first stops a reconnect.
      if (isFinalPaymentView(parsed.output)) {
        source.close();
        setOpen(false);
      }
    });
    return () => {
      clearTimeout(reopen);
      source.close();
      setOpen(false);
    };
  }, [orderId, enabled, attempt]);
  return open;
}

function safeJson(text: unknown): unknown {
  try {
    return JSON.parse(String(text));
  } catch {
    return undefined;
  }
}
