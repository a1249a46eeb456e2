// GET /api/orders/{id}/payment-events: the payment status pushed to the payment page as
// Server-Sent Events, so the page shows a payment within a block instead of at its next 10 s poll.
// Each event is the view GET /api/check-payment-status answers (one code path on the page), sent
// when it changes: the worker's notification that it recorded a state (detected, underpaid,
// received, expired, reversed) and, while a payment waits for depth, each new indexed block
// (confirmations grow). The stream ends once the order is paid; EventSource reconnects otherwise.
// Note: the order id is the capability, as on the payment page itself; a view holds amounts and
// states only, no address, key or customer data.
import type { Sql } from 'postgres';
import { AppError } from '../../http/errors.ts';
import { INDEXED_HEAD_CHANNEL, PAYMENT_CHANGES_CHANNEL } from '../../payments/payment-notices.ts';
import { getOrderOrThrow } from './assign-payment-wallet.ts';
import { paymentStatusOf } from './check-payment-status.ts';
import type { PaymentDeps, PaymentStatusView } from './model.ts';

/** Limits and timings of the streams of one API process. */
export interface PaymentStreamSettings {
  /** Streams one client (an IPv4 address, an IPv6 /64) may hold open at once. */
  perClient: number;
  /** Streams the process holds open at once. */
  maxOpen: number;
  /** Period of the comment lines that keep proxies from closing an idle stream. */
  heartbeatMs: number;
  /** Period of a check without any notification (a notification lost while reconnecting). */
  recheckMs: number;
  /** A stream is closed after this long; the browser reconnects (to any API replica). */
  maxLifetimeMs: number;
  /** The reconnection delay the browser is told to use. */
  retryMs: number;
}

/** Default settings; `perClient` comes from the configuration. */
export const PAYMENT_STREAM_DEFAULTS: Omit<PaymentStreamSettings, 'perClient'> = {
  maxOpen: 10_000,
  heartbeatMs: 15_000,
  recheckMs: 10_000,
  maxLifetimeMs: 10 * 60_000,
  retryMs: 3_000,
};

/** Texts of the stream refusals (the page then checks every 10 seconds, as before). */
export const PAYMENT_STREAM_MESSAGES = {
  tooManyForClient: 'Too many live payment pages are open from your network',
  tooManyOpen: 'Too many live payment pages are open right now; try again in a minute',
} as const;

/** API statuses after which nothing more is pushed: the order is paid. */
const FINAL_STATUSES = new Set(['received', 'forwarded']);

/** Statuses whose view changes with every block (confirmations of a payment below depth). */
const AWAITING_DEPTH = new Set(['detected_pending_processing', 'underpaid']);

/** True when the view is the last one the stream sends. */
export function isFinalPaymentView(view: Pick<PaymentStatusView, 'status'>): boolean {
  return FINAL_STATUSES.has(view.status);
}

/** One open stream. */
interface Stream {
  orderId: string;
  client: string;
  /** The last view sent, as JSON. */
  last: string;
  lastStatus: string;
  check(): void;
  close(): void;
}

const encoder = new TextEncoder();

/** One SSE event carrying `view`. */
function statusEvent(view: PaymentStatusView): Uint8Array {
  return encoder.encode(`event: status\ndata: ${JSON.stringify(view)}\n\n`);
}

/** The streams of one API process and their Postgres listener (started with the first stream). */
export function paymentStreams(
  deps: PaymentDeps,
  client: Sql,
  settings: PaymentStreamSettings,
  log: (line: string) => void = console.warn,
) {
  const byOrder = new Map<string, Set<Stream>>();
  const perClient = new Map<string, number>();
  let open = 0;
  let listening: Promise<void> | undefined;

  const each = (visit: (stream: Stream) => void) => {
    for (const streams of byOrder.values()) for (const stream of streams) visit(stream);
  };
  /**
   * Listens on both channels once; after a reconnection every stream is checked, since
   * notifications sent while the connection was down are lost.
   * Note: postgres holds one dedicated connection for all listens and re-listens on reconnect.
   */
  const listen = () => {
    listening ??= Promise.all([
      client.listen(PAYMENT_CHANGES_CHANNEL, (orderId) => {
        for (const stream of byOrder.get(orderId) ?? []) stream.check();
      }),
      client.listen(
        INDEXED_HEAD_CHANNEL,
        () => each((stream) => AWAITING_DEPTH.has(stream.lastStatus) && stream.check()),
        () => each((stream) => stream.check()),
      ),
    ]).then(
      () => undefined,
      (error: unknown) => {
        // Note: the streams still work on their periodic checks; the next stream tries again.
        listening = undefined;
        log(`payment streams: LISTEN failed (${(error as Error).message}); checking periodically`);
      },
    );
    return listening;
  };

  /** Forgets a closed stream (its counters are given back by the stream itself). */
  const removeStream = (stream: Stream) => {
    const streams = byOrder.get(stream.orderId);
    if (!streams?.delete(stream)) return;
    if (streams.size === 0) byOrder.delete(stream.orderId);
  };

  /**
   * Opens the stream of `orderId` for `clientKey`: 429 past the client's streams, 503 past the
   * process's, 404 for an unknown order; the first event is the current view.
   */
  const openStream = async (
    orderId: string,
    clientKey: string,
    signal?: AbortSignal,
  ): Promise<Response> => {
    if ((perClient.get(clientKey) ?? 0) >= settings.perClient)
      throw new AppError('rate_limited', PAYMENT_STREAM_MESSAGES.tooManyForClient);
    if (open >= settings.maxOpen)
      throw new AppError('unavailable', PAYMENT_STREAM_MESSAGES.tooManyOpen);
    // Note: the stream's place is taken before the first await, so parallel opens cannot all pass
    // the checks above; it is given back on failure, for a paid order, or when the stream closes.
    open += 1;
    perClient.set(clientKey, (perClient.get(clientKey) ?? 0) + 1);
    let reserved = true;
    const giveBack = () => {
      if (!reserved) return;
      reserved = false;
      open -= 1;
      const count = (perClient.get(clientKey) ?? 1) - 1;
      if (count > 0) perClient.set(clientKey, count);
      else perClient.delete(clientKey);
    };
    let order: Awaited<ReturnType<typeof getOrderOrThrow>>;
    let first: Awaited<ReturnType<typeof paymentStatusOf>>;
    try {
      // Note: listening before the first read, so no change can fall between the two.
      await listen();
      order = await getOrderOrThrow(deps.db, orderId);
      first = await paymentStatusOf(deps, order);
    } catch (error) {
      giveBack();
      throw error;
    }

    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    let closed = false;
    let busy = false;
    let again = false;
    const timers: ReturnType<typeof setInterval>[] = [];
    const send = (bytes: Uint8Array) => {
      if (!closed) controller?.enqueue(bytes);
    };
    const stream: Stream = {
      orderId,
      client: clientKey,
      last: JSON.stringify(first),
      lastStatus: first.status,
      check: () => {
        if (closed) return;
        if (busy) {
          again = true;
          return;
        }
        busy = true;
        paymentStatusOf(deps, order)
          .then((view) => {
            const json = JSON.stringify(view);
            if (json !== stream.last) {
              stream.last = json;
              stream.lastStatus = view.status;
              send(statusEvent(view));
            }
            if (isFinalPaymentView(view)) stream.close();
          })
          .catch((error: unknown) => log(`payment stream of ${orderId}: ${String(error)}`))
          .finally(() => {
            busy = false;
            if (again) {
              again = false;
              stream.check();
            }
          });
      },
      close: () => {
        if (closed) return;
        closed = true;
        for (const timer of timers) clearInterval(timer);
        removeStream(stream);
        giveBack();
        try {
          controller?.close();
        } catch {
          // already closed by the client
        }
      },
    };

    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        c.enqueue(encoder.encode(`retry: ${settings.retryMs}\n\n`));
        c.enqueue(statusEvent(first));
      },
      cancel() {
        stream.close();
      },
    });
    if (isFinalPaymentView(first)) {
      // Note: a paid order gets its one view and the end of the stream.
      closed = true;
      giveBack();
      queueMicrotask(() => controller?.close());
    } else {
      const streams = byOrder.get(orderId) ?? new Set<Stream>();
      streams.add(stream);
      byOrder.set(orderId, streams);
      timers.push(
        setInterval(() => send(encoder.encode(': keep-alive\n\n')), settings.heartbeatMs),
        setInterval(() => stream.check(), settings.recheckMs),
        setTimeout(() => stream.close(), settings.maxLifetimeMs),
      );
      signal?.addEventListener('abort', () => stream.close(), { once: true });
      // Note: a client gone while the stream was being opened never fires 'abort' again.
      if (signal?.aborted) stream.close();
    }
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        // Note: a buffering proxy (nginx) would hold the events back.
        'x-accel-buffering': 'no',
      },
    });
  };

  return {
    open: openStream,
    /** Streams open now (health and tests). */
    openCount: () => open,
    /** Closes every stream (the API's shutdown). */
    closeAll: () => each((stream) => stream.close()),
  };
}

/** The streams of one API process. */
export type PaymentStreams = ReturnType<typeof paymentStreams>;
