// The webhook dispatcher (in the worker): claims due deliveries from the outbox, signs the stored
// bytes (v1 with the store's secret, v1a with the platform key for universal orders), POSTs them
// and stores every attempt. Retries network errors, 408, 429 and 5xx with exponential backoff
// until the delivery is 3 days old. At least once: a worker that dies mid-send resends after the
// lease; receivers deduplicate on `webhook-id`.
import { WEBHOOK_TIMEOUT_MS } from '@store/shared';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { stores, webhookAttempts, webhookDeliveries } from '../db/schema.ts';
import { startWakeableLoop, type WakeableLoop } from '../settlement/wakeable-loop.ts';
import { type AttemptResult, postWebhook } from './http-post.ts';
import { messageIdOf, PLATFORM_SIGNED } from './outbox.ts';
import { signWebhook, type WebhookSigner } from './signing.ts';

/** Settings of the dispatcher. */
export interface DispatcherOptions {
  db: Database;
  /** The platform's Ed25519 key (whsk_…) for universal orders. */
  signingKey: string;
  allowPrivate: boolean;
  /** First retry delay; doubles each attempt, at most `MAX_RETRY_DELAY_MS`. */
  retryBaseMs: number;
  timeoutMs?: number;
  intervalMs?: number;
  /** Deliveries sent at the same time (a slow receiver does not hold up the others). */
  concurrency?: number;
  log?: (line: string) => void;
}

/** Longest wait between two attempts. */
export const MAX_RETRY_DELAY_MS = 12 * 60 * 60 * 1000;
/** How long a previous store secret still signs after a rotation. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

type Delivery = typeof webhookDeliveries.$inferSelect;

/** Delay before attempt `attempts + 1`: base × 2^(attempts − 1), capped. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
}

/** How a delivery is signed: universal orders by the platform key, store orders by the store. */
async function signerOf(db: Database, delivery: Delivery, signingKey: string, now: Date) {
  if (delivery.storeId === PLATFORM_SIGNED)
    return { scheme: 'v1a', secretKey: signingKey } as const;
  const [store] = await db
    .select({
      secret: stores.webhookSecret,
      previous: stores.previousWebhookSecret,
      rotatedAt: stores.webhookSecretRotatedAt,
    })
    .from(stores)
    .where(sql`${stores.id}::text = ${delivery.storeId}`)
    .limit(1);
  if (!store?.secret) return undefined;
  const overlap = store.rotatedAt && now.getTime() - store.rotatedAt.getTime() < SECRET_OVERLAP_MS;
  const secrets = overlap && store.previous ? [store.secret, store.previous] : [store.secret];
  return { scheme: 'v1', secrets } satisfies WebhookSigner;
}

/** Claims up to `limit` due deliveries, leasing them past the timeout so no one else sends them. */
async function claimDue(db: Database, limit: number, leaseMs: number): Promise<Delivery[]> {
  return db.execute<Delivery>(sql`
    update webhook_deliveries set next_attempt_at = now() + ${`${leaseMs} milliseconds`}::interval
    where id in (
      select id from webhook_deliveries
      where status = 'pending' and next_attempt_at <= now()
      order by next_attempt_at limit ${limit} for update skip locked)
    returning id, store_id as "storeId", url, payload, attempt_count as "attemptCount",
      retry_until as "retryUntil", event_type as "eventType"`) as unknown as Promise<Delivery[]>;
}

/** Stores one attempt and the delivery's next state, in one transaction. */
async function recordAttempt(
  db: Database,
  delivery: Delivery,
  result: AttemptResult,
  at: Date,
  retryBaseMs: number,
): Promise<string> {
  const attempts = delivery.attemptCount + 1;
  const next = new Date(at.getTime() + retryDelayMs(attempts, retryBaseMs));
  const retry = result.retryable && next.getTime() <= new Date(delivery.retryUntil).getTime();
  const status = result.delivered ? 'delivered' : retry ? 'pending' : 'failed';
  await db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      deliveryId: delivery.id,
      attemptedAt: at,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      error: result.error,
      responseBody: result.responseBody,
    });
    await tx
      .update(webhookDeliveries)
      .set({
        status,
        attemptCount: attempts,
        lastAttemptAt: at,
        lastStatusCode: result.statusCode,
        lastError: result.error,
        nextAttemptAt: next,
        ...(result.delivered ? { deliveredAt: at } : {}),
      })
      .where(eq(webhookDeliveries.id, delivery.id));
  });
  return status;
}

/** Sends one claimed delivery and records the attempt. */
async function sendOne(options: DispatcherOptions, delivery: Delivery): Promise<void> {
  const at = new Date();
  const signer = await signerOf(options.db, delivery, options.signingKey, at);
  const result: AttemptResult = signer
    ? await postWebhook(
        delivery.url,
        delivery.payload,
        { ...signWebhook(signer, messageIdOf(delivery.id), at, delivery.payload) },
        {
          timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
          allowPrivate: options.allowPrivate,
        },
      )
    : {
        statusCode: null,
        latencyMs: 0,
        error: 'the store has no webhook secret',
        responseBody: null,
        delivered: false,
        retryable: false,
      };
  const status = await recordAttempt(options.db, delivery, result, at, options.retryBaseMs);
  if (!result.delivered)
    options.log?.(
      `webhook ${delivery.eventType} ${messageIdOf(delivery.id)} to ${delivery.url}: ` +
        `${result.error} (${status === 'pending' ? 'will retry' : 'given up'})`,
    );
}

const leaseOf = (options: DispatcherOptions) => (options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) + 20_000;

/** One pass that waits for its sends (tests and tools); true when more may be due. */
export async function dispatchDue(options: DispatcherOptions): Promise<boolean> {
  const limit = options.concurrency ?? 16;
  const due = await claimDue(options.db, limit, leaseOf(options));
  await Promise.all(due.map((delivery) => sendOne(options, delivery)));
  return due.length === limit;
}

/**
 * Starts the dispatcher loop (a pass every 250 ms by default, or when woken). Note: a pass only
 * starts sends, so a receiver that takes the full timeout never holds up the other deliveries.
 */
export function startWebhookDispatcher(options: DispatcherOptions): WakeableLoop {
  const log = options.log ?? console.log;
  const limit = options.concurrency ?? 16;
  const inFlight = new Set<Promise<void>>();
  const loop = startWakeableLoop(
    'webhook dispatch',
    options.intervalMs ?? 250,
    async () => {
      const free = limit - inFlight.size;
      if (free <= 0) return false;
      const due = await claimDue(options.db, free, leaseOf(options));
      for (const delivery of due) {
        const sending: Promise<void> = sendOne(options, delivery)
          .catch((error) => log(`webhook ${delivery.id}: ${String(error)}`))
          .finally(() => {
            inFlight.delete(sending);
            loop.wake();
          });
        inFlight.add(sending);
      }
      return due.length === free;
    },
    log,
  );
  return {
    wake: loop.wake,
    stop: async () => {
      await loop.stop();
      await Promise.all(inFlight);
    },
  };
}
