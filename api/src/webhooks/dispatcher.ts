// The webhook dispatcher (in the worker): claims due deliveries from the outbox, signs the stored
// bytes (v1 with the store's secret, v1a with the platform key for universal orders), POSTs them
// and stores every attempt. Retries network errors, 408, 429 and 5xx with exponential backoff
// until the delivery is 3 days old. At least once: a worker that dies mid-send resends after the
// lease; receivers deduplicate on `webhook-id`.
// No head-of-line blocking: at most WEBHOOK_SENDS_PER_ENDPOINT sends per URL are in flight, so a
// receiver that takes the full timeout holds a few slots, never all of them; and a URL that fails
// WEBHOOK_PAUSE_AFTER_FAILURES times in a row is paused (its deliveries wait, one probe at a time,
// its owner told once) until it answers again.
import { WEBHOOK_TIMEOUT_MS } from '@store/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { stores, type webhookDeliveries, webhookEndpoints } from '../db/schema.ts';
import { backoffDelayMs } from '../loops/backoff.ts';
import { startWakeableLoop, type WakeableLoop } from '../loops/wakeable-loop.ts';
import { enqueueAccountNotice } from '../mail/notices.ts';
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
  /** Sends in flight to one URL at most (WEBHOOK_SENDS_PER_ENDPOINT). */
  perEndpoint?: number;
  /** First pause of a failing URL; doubles with each failed probe, at most MAX_PAUSE_MS. */
  pauseBaseMs?: number;
  /** The web app's origin for the owner's notice (null: none known). */
  publicUrl?: string | null;
  log?: (line: string) => void;
}

/** Sends in flight to one URL at most. */
export const WEBHOOK_SENDS_PER_ENDPOINT = 4;
/** Failures in a row (network, timeout, 408, 429, 5xx) after which a URL is paused. */
export const WEBHOOK_PAUSE_AFTER_FAILURES = 5;
/** First pause of a failing URL (then 2×, 4×, … at each failed probe). */
export const WEBHOOK_PAUSE_BASE_MS = 30_000;
/** Longest pause between two probes of a failing URL. */
export const MAX_PAUSE_MS = 60 * 60 * 1000;

/** Longest wait between two attempts. */
export const MAX_RETRY_DELAY_MS = 12 * 60 * 60 * 1000;
/** How long a previous store secret still signs after a rotation. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A claimed delivery, and whether its URL has failures on record (to clear on an answer). */
type Delivery = typeof webhookDeliveries.$inferSelect & { endpointFailing?: boolean };

/** A store's secrets as read lately: a dispatcher reads each store once per SIGNER_CACHE_MS. */
type SignerCache = Map<string, { readAt: number; store: StoreSecrets | undefined }>;
/** A store's signing secrets as stored. */
export interface StoreSecrets {
  secret: string | null;
  previous: string | null;
  rotatedAt: Date | null;
}

/** Until when a store's previous secret still signs beside the new one; null once it does not. */
export function previousSecretUntil(store: StoreSecrets, now: Date): Date | null {
  if (!store.previous || !store.rotatedAt) return null;
  const until = store.rotatedAt.getTime() + SECRET_OVERLAP_MS;
  return until > now.getTime() ? new Date(until) : null;
}

/** The secrets that sign a store's webhooks at `now`: its secret, and the previous one beside it. */
export function signingSecretsOf(store: StoreSecrets, now: Date): string[] {
  if (!store.secret) return [];
  return store.previous && previousSecretUntil(store, now)
    ? [store.secret, store.previous]
    : [store.secret];
}
/** How long a store's secrets are reused (a rotation keeps the old secret valid for a day). */
const SIGNER_CACHE_MS = 5_000;

/** How a delivery is signed: universal orders by the platform key, store orders by the store. */
async function signerOf(
  db: Database,
  delivery: Delivery,
  signingKey: string,
  now: Date,
  cache: SignerCache,
) {
  if (delivery.storeId === PLATFORM_SIGNED)
    return { scheme: 'v1a', secretKey: signingKey } as const;
  const cached = cache.get(delivery.storeId);
  const store =
    cached && now.getTime() - cached.readAt < SIGNER_CACHE_MS
      ? cached.store
      : await readStoreSecrets(db, delivery.storeId);
  if (!cached || cached.store !== store)
    cache.set(delivery.storeId, { readAt: now.getTime(), store });
  const secrets = store ? signingSecretsOf(store, now) : [];
  if (secrets.length === 0) return undefined;
  return { scheme: 'v1', secrets } satisfies WebhookSigner;
}

async function readStoreSecrets(db: Database, storeId: string): Promise<StoreSecrets | undefined> {
  const [store] = await db
    .select({
      secret: stores.webhookSecret,
      previous: stores.previousWebhookSecret,
      rotatedAt: stores.webhookSecretRotatedAt,
    })
    .from(stores)
    .where(sql`${stores.id}::text = ${storeId}`)
    .limit(1);
  return store;
}

/**
 * Claims up to `limit` due deliveries, leasing them past the timeout so no one else sends them:
 * at most `perEndpoint` per URL less what `busy` already sends to it, one for a paused URL whose
 * probe is due, none for a URL still paused.
 */
async function claimDue(
  db: Database,
  limit: number,
  leaseMs: number,
  perEndpoint: number,
  busy: ReadonlyMap<string, number>,
): Promise<Delivery[]> {
  const inFlight = JSON.stringify(Object.fromEntries(busy));
  // Note: a paused or saturated URL's deliveries are left out before the candidates are picked,
  // so a dead receiver's backlog never crowds out the others.
  return db.execute<Delivery>(sql`
    update webhook_deliveries set next_attempt_at = now() + ${`${leaseMs} milliseconds`}::interval
    where id in (
      select id from (
        select d.id, d.next_attempt_at,
          row_number() over (partition by d.url order by d.next_attempt_at) as nth,
          d.cap - d.busy as free
        from (
          select w.id, w.url, w.next_attempt_at,
            case when e.paused_at is not null then 1 else ${perEndpoint}::int end as cap,
            coalesce((${inFlight}::jsonb ->> w.url)::int, 0) as busy
          from webhook_deliveries w
          left join webhook_endpoints e on e.url = w.url
          where w.status = 'pending' and w.next_attempt_at <= now()
            and coalesce((${inFlight}::jsonb ->> w.url)::int, 0)
              < case when e.paused_at is not null then 1 else ${perEndpoint}::int end
            and (e.paused_until is null or e.paused_until <= now())
          order by w.next_attempt_at limit ${limit * 8}
          for update of w skip locked) d) ranked
      where nth <= free
      order by next_attempt_at limit ${limit})
    returning id, store_id as "storeId", url, payload, attempt_count as "attemptCount",
      retry_until as "retryUntil", event_type as "eventType",
      exists(select 1 from webhook_endpoints e where e.url = webhook_deliveries.url
        and (e.consecutive_failures > 0 or e.paused_at is not null)) as "endpointFailing"`) as unknown as Promise<
    Delivery[]
  >;
}

/**
 * Records what an attempt says of its URL: an answer resets it (and ends a pause); a failure that
 * may pass counts, and the WEBHOOK_PAUSE_AFTER_FAILURES-th in a row pauses it (each failed probe
 * twice as long), telling the store's owner once per pause. A final answer (3xx, 4xx) says the
 * receiver is up and changes nothing.
 */
async function recordEndpoint(
  options: DispatcherOptions,
  delivery: Delivery,
  result: AttemptResult,
  at: Date,
): Promise<void> {
  const { db } = options;
  if (result.statusCode !== null && !result.retryable) {
    // Note: a URL with nothing on record needs no write (most answers).
    if (!delivery.endpointFailing) return;
    await db
      .update(webhookEndpoints)
      .set({
        consecutiveFailures: 0,
        pausedAt: null,
        pausedUntil: null,
        notifiedAt: null,
        updatedAt: at,
      })
      .where(eq(webhookEndpoints.url, delivery.url));
    return;
  }
  if (!result.retryable) return;
  const base = options.pauseBaseMs ?? WEBHOOK_PAUSE_BASE_MS;
  const [row] = await db.execute<{ failures: number }>(sql`
    insert into webhook_endpoints as e (url, consecutive_failures, last_error, updated_at)
    values (${delivery.url}, 1, ${result.error}, ${at.toISOString()}::timestamptz)
    on conflict (url) do update set
      consecutive_failures = e.consecutive_failures + 1,
      last_error = excluded.last_error,
      updated_at = excluded.updated_at
    returning consecutive_failures as failures`);
  if (!row || row.failures < WEBHOOK_PAUSE_AFTER_FAILURES) return;
  const doublings = row.failures - WEBHOOK_PAUSE_AFTER_FAILURES;
  const pauseMs = Math.min(base * 2 ** Math.min(doublings, 30), MAX_PAUSE_MS);
  await db.transaction(async (tx) => {
    await tx
      .update(webhookEndpoints)
      .set({
        pausedAt: sql`coalesce(${webhookEndpoints.pausedAt}, ${at.toISOString()}::timestamptz)`,
        pausedUntil: new Date(at.getTime() + pauseMs),
      })
      .where(eq(webhookEndpoints.url, delivery.url));
    // Note: the first failure to mark the pause notified tells the owner; sends failing beside it
    // find it marked.
    const first = await tx
      .update(webhookEndpoints)
      .set({ notifiedAt: at })
      .where(and(eq(webhookEndpoints.url, delivery.url), isNull(webhookEndpoints.notifiedAt)))
      .returning({ url: webhookEndpoints.url });
    if (first.length === 0) return;
    options.log?.(`webhook URL ${delivery.url} paused after ${row.failures} failures in a row`);
    const owners = await tx.execute<{ ownerId: string }>(sql`
      select distinct s.owner_id as "ownerId" from webhook_deliveries d
      join stores s on s.id::text = d.store_id
      where d.url = ${delivery.url} and d.status = 'pending'`);
    for (const { ownerId } of owners)
      await enqueueAccountNotice(
        tx,
        ownerId,
        {
          kind: 'webhook_paused',
          url: delivery.url,
          failures: row.failures,
          lastError: result.error ?? 'no answer',
        },
        { origin: options.publicUrl ?? null, at },
      );
  });
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
  const next = new Date(at.getTime() + backoffDelayMs(attempts, retryBaseMs, MAX_RETRY_DELAY_MS));
  const retry = result.retryable && next.getTime() <= new Date(delivery.retryUntil).getTime();
  const status = result.delivered ? 'delivered' : retry ? 'pending' : 'failed';
  // Note: one statement (the attempt and the delivery's next state together), one round trip.
  await db.execute(sql`
    with attempt as (
      insert into webhook_attempts (delivery_id, attempted_at, status_code, latency_ms, error,
        response_body)
      values (${delivery.id}, ${at.toISOString()}::timestamptz, ${result.statusCode},
        ${result.latencyMs}, ${result.error}, ${result.responseBody}))
    update webhook_deliveries set status = ${status}, attempt_count = ${attempts},
      last_attempt_at = ${at.toISOString()}::timestamptz, last_status_code = ${result.statusCode},
      last_error = ${result.error}, next_attempt_at = ${next.toISOString()}::timestamptz,
      delivered_at = case when ${result.delivered} then ${at.toISOString()}::timestamptz
        else delivered_at end
    where id = ${delivery.id}`);
  return status;
}

/** Sends one claimed delivery and records the attempt. */
async function sendOne(
  options: DispatcherOptions,
  delivery: Delivery,
  cache: SignerCache,
): Promise<void> {
  const at = new Date();
  const signer = await signerOf(options.db, delivery, options.signingKey, at, cache);
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
  if (signer) await recordEndpoint(options, delivery, result, at);
  if (!result.delivered)
    options.log?.(
      `webhook ${delivery.eventType} ${messageIdOf(delivery.id)} to ${delivery.url}: ` +
        `${result.error} (${status === 'pending' ? 'will retry' : 'given up'})`,
    );
}

const leaseOf = (options: DispatcherOptions) => (options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) + 20_000;
const perEndpointOf = (options: DispatcherOptions) =>
  options.perEndpoint ?? WEBHOOK_SENDS_PER_ENDPOINT;
/** Sends in flight at once by default: slow receivers hold few of them (see perEndpoint). */
const DEFAULT_CONCURRENCY = 64;

/** One pass that waits for its sends (tests and tools); true when more may be due. */
export async function dispatchDue(options: DispatcherOptions): Promise<boolean> {
  const limit = options.concurrency ?? DEFAULT_CONCURRENCY;
  const due = await claimDue(
    options.db,
    limit,
    leaseOf(options),
    perEndpointOf(options),
    new Map(),
  );
  const cache: SignerCache = new Map();
  await Promise.all(due.map((delivery) => sendOne(options, delivery, cache)));
  return due.length === limit;
}

/**
 * Starts the dispatcher loop (a pass every 250 ms by default, or when woken). Note: a pass only
 * starts sends, so a receiver that takes the full timeout never holds up the other deliveries.
 */
export function startWebhookDispatcher(options: DispatcherOptions): WakeableLoop {
  const log = options.log ?? console.log;
  const limit = options.concurrency ?? DEFAULT_CONCURRENCY;
  const inFlight = new Set<Promise<void>>();
  const signers: SignerCache = new Map();
  // Sends in flight per URL, so the claim leaves a busy receiver's deliveries for later.
  const busy = new Map<string, number>();
  const track = (url: string, change: 1 | -1) => {
    const n = (busy.get(url) ?? 0) + change;
    if (n > 0) busy.set(url, n);
    else busy.delete(url);
  };
  const loop = startWakeableLoop(
    'webhook dispatch',
    options.intervalMs ?? 250,
    async () => {
      const free = limit - inFlight.size;
      if (free <= 0) return false;
      const due = await claimDue(options.db, free, leaseOf(options), perEndpointOf(options), busy);
      for (const delivery of due) {
        track(delivery.url, 1);
        const sending: Promise<void> = sendOne(options, delivery, signers)
          .catch((error) => log(`webhook ${delivery.id}: ${String(error)}`))
          .finally(() => {
            track(delivery.url, -1);
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
