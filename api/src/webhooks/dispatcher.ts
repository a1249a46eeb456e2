// The webhook dispatcher (in the worker): claims due deliveries from the outbox, signs the stored
// bytes (v1 with the store's secret, v1a with the platform key for universal orders), POSTs them
// and stores every attempt. Retries network errors, 408, 429 and 5xx with exponential backoff
// until the delivery is 3 days old. At least once: a worker that dies mid-send resends after the
// lease; receivers deduplicate on `webhook-id`.
// No head-of-line blocking: URLs that answer and URLs with failures on record draw on separate
// budgets of sends in flight, and each URL on at most its own share of its budget, so receivers
// that take the full timeout never take the places of the others; a failing URL still gets each
// delivery's retries on schedule. A URL failing without a break for `pauseAfterMs` (3 days by
// default) is dead: it is paused (its deliveries wait, one probe at a time), its owner told once,
// until it answers again.
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
  /** Sends in flight at once to URLs that answer (no failure on record). */
  concurrency?: number;
  /** Sends in flight to one such URL at most (WEBHOOK_SENDS_PER_ENDPOINT). */
  perEndpoint?: number;
  /** Sends in flight at once to URLs with failures on record (their own budget). */
  failingConcurrency?: number;
  /** Sends in flight to one failing URL at most (WEBHOOK_SENDS_PER_FAILING_ENDPOINT). */
  perFailingEndpoint?: number;
  /** How long a URL fails without a break before it is paused (WEBHOOK_PAUSE_AFTER_MS). */
  pauseAfterMs?: number;
  /** First wait before a paused URL's probe; doubles with each failed probe, at most MAX_PAUSE_MS. */
  pauseBaseMs?: number;
  /** The web app's origin for the owner's notice (null: none known). */
  publicUrl?: string | null;
  log?: (line: string) => void;
}

/** Sends in flight to one URL that answers, at most. */
export const WEBHOOK_SENDS_PER_ENDPOINT = 8;
/**
 * Sends in flight to one failing URL at most: enough for its deliveries' retries to go on schedule
 * while each waits the full timeout (a send in flight costs a socket, not a worker).
 */
export const WEBHOOK_SENDS_PER_FAILING_ENDPOINT = 64;
/** How long a URL fails without a break (network, timeout, 408, 429, 5xx) before it is paused. */
export const WEBHOOK_PAUSE_AFTER_MS = 3 * 24 * 60 * 60 * 1000;
/** A gap this long without any attempt ends a run of failures (nothing said the URL was down). */
const FAILING_GAP_MS = 24 * 60 * 60 * 1000;
/** First wait before a paused URL's probe (then 2×, 4×, … at each failed probe). */
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

/** How many sends may start now: to URLs that answer, and to URLs with failures on record. */
interface Budget {
  healthy: number;
  failing: number;
}

/**
 * Claims due deliveries, leasing them past the timeout so no one else sends them: per URL, at most
 * its cap (`perEndpoint`, `perFailing` once it has failures on record, one probe when paused) less
 * what `busy` already sends to it, none for a URL still paused; then the earliest due of each
 * kind within `budget`.
 */
async function claimDue(
  db: Database,
  budget: Budget,
  leaseMs: number,
  caps: { perEndpoint: number; perFailing: number },
  busy: ReadonlyMap<string, number>,
): Promise<Delivery[]> {
  if (budget.healthy <= 0 && budget.failing <= 0) return [];
  const inFlight = JSON.stringify(Object.fromEntries(busy));
  // Note: each URL's candidates are taken within its own free places (the lateral join), so a
  // failing URL's backlog, however long and old, never crowds out the other URLs' deliveries.
  return db.execute<Delivery>(sql`
    with urls as (
      select u.url,
        coalesce(e.consecutive_failures > 0 or e.paused_at is not null, false) as failing,
        case when e.paused_at is not null then 1
          when e.consecutive_failures > 0 then ${caps.perFailing}::int
          else ${caps.perEndpoint}::int end
          - coalesce((${inFlight}::jsonb ->> u.url)::int, 0) as free
      from (select distinct url from webhook_deliveries
        where status = 'pending' and next_attempt_at <= now()) u
      left join webhook_endpoints e on e.url = u.url
      where e.paused_until is null or e.paused_until <= now()),
    candidates as (
      select c.id, c.next_attempt_at, urls.failing from urls
      cross join lateral (
        select d.id, d.next_attempt_at from webhook_deliveries d
        where d.url = urls.url and d.status = 'pending' and d.next_attempt_at <= now()
        order by d.next_attempt_at limit greatest(urls.free, 0)
        for update skip locked) c
      where urls.free > 0),
    picked as (
      select id, failing from (
        select id, failing,
          row_number() over (partition by failing order by next_attempt_at) as nth
        from candidates) ranked
      where nth <= case when failing then ${budget.failing}::int else ${budget.healthy}::int end)
    update webhook_deliveries w
    set next_attempt_at = now() + ${`${leaseMs} milliseconds`}::interval
    from picked where w.id = picked.id
    returning w.id, w.store_id as "storeId", w.url, w.payload, w.attempt_count as "attemptCount",
      w.retry_until as "retryUntil", w.event_type as "eventType",
      picked.failing as "endpointFailing"`) as unknown as Promise<Delivery[]>;
}

/**
 * Records what an attempt says of its URL: an answer resets it (and ends a pause); a failure that
 * may pass counts, and once the URL has failed without a break for `pauseAfterMs` it is paused
 * (each failed probe doubles the wait), its owner told once per pause. A final answer (3xx, 4xx)
 * says the receiver is up.
 */
async function recordEndpoint(
  options: DispatcherOptions,
  delivery: Delivery,
  result: AttemptResult,
  at: Date,
  noteFailure: NoteFailure,
): Promise<void> {
  const { db } = options;
  if (result.statusCode !== null && !result.retryable) {
    // Note: a URL with nothing on record needs no write (most answers).
    if (!delivery.endpointFailing) return;
    await db
      .update(webhookEndpoints)
      .set({
        consecutiveFailures: 0,
        failingSince: null,
        pausedAt: null,
        pausedUntil: null,
        notifiedAt: null,
        updatedAt: at,
      })
      .where(eq(webhookEndpoints.url, delivery.url));
    return;
  }
  if (result.retryable) await noteFailure(delivery, result, at);
}

/** Records `count` failures of a URL, the latest `result` at `at` (see recordEndpoint). */
async function recordFailures(
  options: DispatcherOptions,
  delivery: Delivery,
  result: AttemptResult,
  at: Date,
  count: number,
): Promise<void> {
  const { db } = options;
  const base = options.pauseBaseMs ?? WEBHOOK_PAUSE_BASE_MS;
  const pauseAfterMs = options.pauseAfterMs ?? WEBHOOK_PAUSE_AFTER_MS;
  const iso = at.toISOString();
  const [row] = await db.execute<{
    failures: number;
    failingSince: string;
    pausedAt: string | null;
  }>(sql`
    insert into webhook_endpoints as e (url, consecutive_failures, failing_since, last_error,
      updated_at)
    values (${delivery.url}, ${count}::int, ${iso}::timestamptz, ${result.error},
      ${iso}::timestamptz)
    on conflict (url) do update set
      consecutive_failures = e.consecutive_failures + excluded.consecutive_failures,
      failing_since = case
        when e.failing_since is null
          or e.updated_at < excluded.updated_at - ${`${FAILING_GAP_MS} milliseconds`}::interval
        then excluded.failing_since else e.failing_since end,
      last_error = excluded.last_error,
      updated_at = greatest(e.updated_at, excluded.updated_at)
    returning consecutive_failures as failures, failing_since as "failingSince",
      paused_at as "pausedAt"`);
  if (!row) return;
  const failingMs = at.getTime() - new Date(row.failingSince).getTime();
  if (failingMs < pauseAfterMs) return;
  // Note: probes at base, 3×base, 7×base, … after the pause: each wait is twice the last.
  const pausedFor = row.pausedAt ? at.getTime() - new Date(row.pausedAt).getTime() : 0;
  const pauseMs = Math.min(Math.max(base, pausedFor + base), MAX_PAUSE_MS);
  await db.transaction(async (tx) => {
    await tx
      .update(webhookEndpoints)
      .set({
        pausedAt: sql`coalesce(${webhookEndpoints.pausedAt}, ${iso}::timestamptz)`,
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
    options.log?.(
      `webhook URL ${delivery.url} paused: failing since ${new Date(row.failingSince).toISOString()} (${row.failures} failures in a row)`,
    );
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
          failingSince: new Date(row.failingSince).toISOString(),
          lastError: result.error ?? 'no answer',
        },
        { origin: options.publicUrl ?? null, at },
      );
  });
}

/** Records one failure of a URL; resolves once it is written (alone or with others). */
type NoteFailure = (delivery: Delivery, result: AttemptResult, at: Date) => Promise<void>;

/**
 * Writes failures one URL at a time: those that come while a URL's write runs are added up and
 * written together next. Note: the sends to a silent URL time out together; one upsert each would
 * queue on its row's lock, holding every pooled connection the other receivers' sends need.
 */
function failureRecorder(options: DispatcherOptions): NoteFailure {
  type Queued = {
    count: number;
    delivery: Delivery;
    result: AttemptResult;
    at: Date;
    written: (() => void)[];
  };
  const queued = new Map<string, Queued>();
  const running = new Set<string>();
  const run = async (url: string) => {
    running.add(url);
    try {
      for (let next = queued.get(url); next; next = queued.get(url)) {
        queued.delete(url);
        try {
          await recordFailures(options, next.delivery, next.result, next.at, next.count);
        } catch (error) {
          options.log?.(`webhook URL ${url}: failures not recorded (${String(error)})`);
        } finally {
          for (const done of next.written) done();
        }
      }
    } finally {
      running.delete(url);
    }
  };
  return (delivery, result, at) =>
    new Promise<void>((resolve) => {
      const waiting = queued.get(delivery.url);
      if (waiting) {
        waiting.count += 1;
        if (at >= waiting.at) Object.assign(waiting, { delivery, result, at });
        waiting.written.push(resolve);
      } else queued.set(delivery.url, { count: 1, delivery, result, at, written: [resolve] });
      if (!running.has(delivery.url)) void run(delivery.url);
    });
}

/** Records an attempt; resolves with the delivery's next status once it is written. */
type RecordAttempt = (delivery: Delivery, result: AttemptResult, at: Date) => Promise<string>;

/** An attempt waiting to be written. */
interface AttemptAsk {
  deliveryId: string;
  result: AttemptResult;
  at: Date;
  status: string;
  attempts: number;
  next: Date;
  resolve: (status: string) => void;
  reject: (error: unknown) => void;
}

/** Most attempts written in one statement. */
const MAX_ATTEMPTS_A_STATEMENT = 500;

/**
 * Writes attempts one statement at a time: the attempts that end while one is written go together
 * in the next (each with its delivery's next state), so a busy moment's webhooks cost one round
 * trip for many, and a quiet one's attempt is written at once.
 */
function attemptRecorder(options: DispatcherOptions): RecordAttempt {
  const pending: AttemptAsk[] = [];
  let draining = false;
  const drain = async () => {
    draining = true;
    while (pending.length > 0) {
      const asks = pending.splice(0, MAX_ATTEMPTS_A_STATEMENT);
      try {
        await writeAttempts(options.db, asks);
        for (const ask of asks) ask.resolve(ask.status);
      } catch (error) {
        for (const ask of asks) ask.reject(error);
      }
    }
    // Note: in the same step as the last look at `pending`, so no attempt is left without a drain.
    draining = false;
  };
  return (delivery, result, at) =>
    new Promise<string>((resolve, reject) => {
      const attempts = delivery.attemptCount + 1;
      const next = new Date(
        at.getTime() + backoffDelayMs(attempts, options.retryBaseMs, MAX_RETRY_DELAY_MS),
      );
      const retry = result.retryable && next.getTime() <= new Date(delivery.retryUntil).getTime();
      const status = result.delivered ? 'delivered' : retry ? 'pending' : 'failed';
      pending.push({
        deliveryId: delivery.id,
        result,
        at,
        status,
        attempts,
        next,
        resolve,
        reject,
      });
      if (!draining) void drain();
    });
}

/** Stores attempts and their deliveries' next states, in one statement. */
async function writeAttempts(db: Database, asks: readonly AttemptAsk[]): Promise<void> {
  // Note: every column goes as text[] (the client sends a JS array as text, not as an int[] or a
  // bool[]), each value cast back below.
  const column = (of: (ask: AttemptAsk) => string | number | boolean | null) =>
    asks.map((ask) => {
      const value = of(ask);
      return value === null ? null : String(value);
    });
  await db.$client`
    with v as (
      select t.id::uuid, t.at::timestamptz, t.status_code::int, t.latency_ms::int, t.error,
        t.response_body, t.status, t.attempts::int, t.next_at::timestamptz,
        t.delivered::bool
      from unnest(
        ${column((a) => a.deliveryId)}::text[], ${column((a) => a.at.toISOString())}::text[],
        ${column((a) => a.result.statusCode)}::text[], ${column((a) => a.result.latencyMs)}::text[],
        ${column((a) => a.result.error)}::text[], ${column((a) => a.result.responseBody)}::text[],
        ${column((a) => a.status)}::text[], ${column((a) => a.attempts)}::text[],
        ${column((a) => a.next.toISOString())}::text[], ${column((a) => a.result.delivered)}::text[]
      ) as t(id, at, status_code, latency_ms, error, response_body, status, attempts, next_at,
        delivered)),
    attempt as (
      insert into webhook_attempts (delivery_id, attempted_at, status_code, latency_ms, error,
        response_body)
      select id, at, status_code, latency_ms, error, response_body from v)
    update webhook_deliveries d set status = v.status, attempt_count = v.attempts,
      last_attempt_at = v.at, last_status_code = v.status_code, last_error = v.error,
      next_attempt_at = v.next_at,
      delivered_at = case when v.delivered then v.at else d.delivered_at end
    from v where d.id = v.id`;
}

/** Sends one claimed delivery and records the attempt. */
async function sendOne(
  options: DispatcherOptions,
  delivery: Delivery,
  cache: SignerCache,
  noteFailure: NoteFailure,
  recordAttempt: RecordAttempt,
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
  const status = await recordAttempt(delivery, result, at);
  if (signer) await recordEndpoint(options, delivery, result, at, noteFailure);
  if (!result.delivered)
    options.log?.(
      `webhook ${delivery.eventType} ${messageIdOf(delivery.id)} to ${delivery.url}: ` +
        `${result.error} (${status === 'pending' ? 'will retry' : 'given up'})`,
    );
}

const leaseOf = (options: DispatcherOptions) => (options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) + 20_000;
const capsOf = (options: DispatcherOptions) => ({
  perEndpoint: options.perEndpoint ?? WEBHOOK_SENDS_PER_ENDPOINT,
  perFailing: options.perFailingEndpoint ?? WEBHOOK_SENDS_PER_FAILING_ENDPOINT,
});
/** A send to an answering URL still unanswered after this long counts against the failing budget. */
const SLOW_SEND_MS = 200;
/** Sends in flight at once to URLs that answer, by default. */
const DEFAULT_CONCURRENCY = 64;
/** Sends in flight at once to failing URLs, by default (most of them wait for their timeout). */
const DEFAULT_FAILING_CONCURRENCY = 1024;
const budgetOf = (options: DispatcherOptions): Budget => ({
  healthy: options.concurrency ?? DEFAULT_CONCURRENCY,
  failing: options.failingConcurrency ?? DEFAULT_FAILING_CONCURRENCY,
});

/** One pass that waits for its sends (tests and tools); true when more may be due. */
export async function dispatchDue(options: DispatcherOptions): Promise<boolean> {
  const budget = budgetOf(options);
  const due = await claimDue(options.db, budget, leaseOf(options), capsOf(options), new Map());
  const cache: SignerCache = new Map();
  const noteFailure = failureRecorder(options);
  const recordAttempt = attemptRecorder(options);
  await Promise.all(
    due.map((delivery) => sendOne(options, delivery, cache, noteFailure, recordAttempt)),
  );
  const healthy = due.filter((d) => !d.endpointFailing).length;
  return healthy === budget.healthy || due.length - healthy === budget.failing;
}

/**
 * Starts the dispatcher loop (a pass every 250 ms by default, or when woken). Note: a pass only
 * starts sends, so a receiver that takes the full timeout never holds up the other deliveries.
 */
export function startWebhookDispatcher(options: DispatcherOptions): WakeableLoop {
  const log = options.log ?? console.log;
  const budget = budgetOf(options);
  const inFlight = new Set<Promise<void>>();
  const signers: SignerCache = new Map();
  const noteFailure = failureRecorder(options);
  const recordAttempt = attemptRecorder(options);
  // Sends in flight per URL, so the claim leaves a busy receiver's deliveries for later; and per
  // budget (a send counts against the one it was claimed under until it ends).
  const busy = new Map<string, number>();
  const used = { healthy: 0, failing: 0 };
  const slowAfterMs = Math.min(SLOW_SEND_MS, (options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 2);
  const track = (url: string, kind: keyof Budget, change: 1 | -1) => {
    const n = (busy.get(url) ?? 0) + change;
    if (n > 0) busy.set(url, n);
    else busy.delete(url);
    used[kind] += change;
  };
  const loop = startWakeableLoop(
    'webhook dispatch',
    options.intervalMs ?? 250,
    async () => {
      const free = {
        healthy: budget.healthy - used.healthy,
        failing: budget.failing - used.failing,
      };
      const due = await claimDue(options.db, free, leaseOf(options), capsOf(options), busy);
      for (const delivery of due) {
        let kind: keyof Budget = delivery.endpointFailing ? 'failing' : 'healthy';
        track(delivery.url, kind, 1);
        // Note: a send to a URL with nothing on record that has not been answered within
        // SLOW_SEND_MS moves to the failing budget, so a receiver that just went silent cannot
        // hold the answering ones' places for a whole timeout.
        const slow =
          kind === 'healthy'
            ? setTimeout(() => {
                used.healthy -= 1;
                used.failing += 1;
                kind = 'failing';
                loop.wake();
              }, slowAfterMs)
            : undefined;
        const sending: Promise<void> = sendOne(
          options,
          delivery,
          signers,
          noteFailure,
          recordAttempt,
        )
          .catch((error) => log(`webhook ${delivery.id}: ${String(error)}`))
          .finally(() => {
            clearTimeout(slow);
            track(delivery.url, kind, -1);
            inFlight.delete(sending);
            loop.wake();
          });
        inFlight.add(sending);
      }
      // Note: more may be due when a budget was filled; the sends' ends wake the loop anyway.
      const healthy = due.filter((d) => !d.endpointFailing).length;
      return (
        (free.healthy > 0 && healthy === free.healthy) ||
        (free.failing > 0 && due.length - healthy === free.failing)
      );
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
