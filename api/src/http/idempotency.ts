// Idempotency-Key on POST/PUT/PATCH/DELETE: the first response is stored and replayed for 24 hours.
// Insert-first on the (scope, key) primary key makes a concurrent duplicate lose the race cleanly.
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { Elysia, StatusMap } from 'elysia';
import type { Database } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { clientAddress, clientBucket, type RequestSource } from './client-address.ts';
import { AppError } from './errors.ts';
import { userOfRequest } from './session.ts';

/** Header carrying the client's key. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Header set on a replayed response. */
export const REPLAYED_HEADER = 'idempotent-replayed';
const MAX_KEY_LENGTH = 200;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Note: a session cookie cannot be replayed, so sign-in and sign-up always run.
/** Paths under this prefix ignore the Idempotency-Key. */
export const IDEMPOTENCY_EXEMPT_PREFIX = '/api/auth/';

/** Texts of the idempotency errors. */
export const IDEMPOTENCY_MESSAGES = {
  keyLength: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`,
  reused: 'This Idempotency-Key was already used for a different request',
  inProgress: 'A request with this Idempotency-Key is in progress',
} as const;

export interface Claim {
  scope: string;
  key: string;
}

/** A finished request's stored response. */
export interface Replay {
  claimed: false;
  status: number;
  body: unknown;
}
export type Outcome = { claimed: true } | Replay;
/** Where a handler sets its status and headers. */
type ResponseSet = { status?: number | string; headers: Record<string, unknown> };

// Claims of the requests in flight, read back when their response is known.
const claims = new WeakMap<Request, Claim>();
// Requests whose route reads and writes its key itself (see `keyHandledByRoute`).
const handledByRoute = new WeakSet<Request>();

/**
 * For a route's `transform` hook: the plugin leaves this request's key to the route, which checks
 * it with `requestKeyRow` and `claimKey` (or writes it with its own statement) and hands a claim
 * back with `settleWithResponse` when the plugin should store the response.
 */
export function keyHandledByRoute(request: Request): void {
  handledByRoute.add(request);
}

/** Makes the plugin store this request's response under its claimed key (as for any route). */
export function settleWithResponse(request: Request, claim: Claim): void {
  claims.set(request, { scope: claim.scope, key: claim.key });
}

/**
 * Whose keys a request's are: its merchant (session or API key), else its client (the network
 * address, as the rate limits count it): an anonymous key never replays another client's answer
 * (a new order's buyer token) to whoever sends the same key and body.
 */
export function anonymousScope(source: RequestSource, trustProxy: boolean): string {
  return `anonymous:${clientBucket(clientAddress(source, { trustProxy }))}`;
}

/** The key row of a mutating request (scope, key, method, path, body hash); null without a key. */
export async function requestKeyRow(
  db: Database,
  request: Request,
  body: unknown,
  /** The scope of the request when it is anonymous (`anonymousScope`). */
  anonymous: string,
): Promise<KeyRow | null> {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  const url = new URL(request.url);
  if (
    key === null ||
    !MUTATING.has(request.method) ||
    url.pathname.startsWith(IDEMPOTENCY_EXEMPT_PREFIX)
  )
    return null;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH)
    throw new AppError('validation_failed', IDEMPOTENCY_MESSAGES.keyLength);
  const scope = (await userOfRequest(db, request))?.id ?? anonymous;
  return {
    scope,
    key,
    method: request.method,
    path: url.pathname + url.search,
    requestHash: new Bun.CryptoHasher('sha256').update(JSON.stringify(body ?? null)).digest('hex'),
  };
}

/**
 * Answers with a finished request's stored response (status and the replayed header). Note: a
 * `Response`, so the route's declared response does not check it again: it is the first answer,
 * checked when it went out, with its secrets replaced by null (`replayJson`).
 */
export function replayed(set: ResponseSet, outcome: Replay): Response {
  set.status = outcome.status;
  set.headers[REPLAYED_HEADER] = 'true';
  return new Response(JSON.stringify(outcome.body), {
    status: outcome.status,
    headers: { 'content-type': 'application/json', [REPLAYED_HEADER]: 'true' },
  });
}

/** Plugin: claims the key before the handler, replays a finished one, stores the first response. */
export const idempotencyPlugin = (db: Database, options: { trustProxy: boolean }) =>
  new Elysia({ name: 'idempotency' })
    .onBeforeHandle({ as: 'global' }, async ({ request, body, set, server }) => {
      if (handledByRoute.has(request)) return;
      const anonymous = anonymousScope({ request, server }, options.trustProxy);
      const row = await requestKeyRow(db, request, body, anonymous);
      if (row === null) return;
      const outcome = await claimKey(db, row);
      if (!outcome.claimed) return replayed(set, outcome);
      settleWithResponse(request, row);
    })
    // Note: returns the response unchanged rather than undefined: Elysia's app-level error path
    // (404s, errors thrown in onRequest) takes a mapResponse hook's result as the body unchecked.
    .mapResponse({ as: 'global' }, async ({ request, set, responseValue }) => {
      const claim = claims.get(request);
      if (claim) {
        claims.delete(request);
        const status = typeof set.status === 'number' ? set.status : StatusMap[set.status ?? 'OK'];
        await settleKey(db, claim, status, responseValue);
      }
      return responseValue as Response;
    });

/** A key's row as a request claims it. */
export type KeyRow = typeof idempotencyKeys.$inferInsert;
const sameKey = (claim: Claim) =>
  and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key));

// Note: the two statements every keyed request runs, prepared (no query building per request).
const CLAIM = `insert into idempotency_keys (scope, key, method, path, request_hash)
  values ($1::text, $2::text, $3::text, $4::text, $5::text) on conflict do nothing returning key`;
const SETTLE = `update idempotency_keys set response_status = $3::int, response_body = $4::jsonb
  where scope = $1::text and key = $2::text`;

/**
 * Claims `row`'s key for this request, or the outcome of the request that used it first: its
 * stored response, 409 while it runs, 422 for another body or path. A key past its 24 hours (or
 * whose request never finished in 5 minutes) is taken over.
 */
export async function claimKey(db: Database, row: KeyRow): Promise<Outcome> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db.$client.unsafe(
      CLAIM,
      [row.scope, row.key, row.method, row.path, row.requestHash],
      { prepare: true },
    );
    if (inserted.length > 0) return { claimed: true };
    if (await deleteExpiredKey(db, row)) continue;
    const [existing] = await db.select().from(idempotencyKeys).where(sameKey(row)).limit(1);
    if (!existing) continue;
    const same =
      existing.method === row.method &&
      existing.path === row.path &&
      existing.requestHash === row.requestHash;
    if (!same) throw new AppError('validation_failed', IDEMPOTENCY_MESSAGES.reused);
    if (existing.responseStatus === null)
      throw new AppError('idempotency_in_progress', IDEMPOTENCY_MESSAGES.inProgress);
    return { claimed: false, status: existing.responseStatus, body: existing.responseBody };
  }
  throw new AppError('idempotency_in_progress', IDEMPOTENCY_MESSAGES.inProgress);
}

// Note: a key whose first request never finished (a crash) is taken over after 5 minutes.
async function deleteExpiredKey(db: Database, claim: Claim): Promise<boolean> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(
      and(
        sameKey(claim),
        or(
          lt(idempotencyKeys.createdAt, sql`now() - interval '24 hours'`),
          and(
            isNull(idempotencyKeys.responseStatus),
            lt(idempotencyKeys.createdAt, sql`now() - interval '5 minutes'`),
          ),
        ),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return deleted.length > 0;
}

/**
 * Stores a response for replay; a server error, a 429 (its Retry-After invites the same request
 * later) or a non-JSON response frees the key for a retry.
 */
export async function settleKey(db: Database, claim: Claim, status: number, body: unknown) {
  const storable =
    status < 500 && status !== 429 && !(body instanceof Response) && body !== undefined;
  if (!storable) {
    await db.delete(idempotencyKeys).where(sameKey(claim));
    return;
  }
  // Note: stored as drizzle's jsonb column would store it (JSON.stringify: dates as ISO strings).
  await db.$client.unsafe(SETTLE, [claim.scope, claim.key, status, replayJson(body)], {
    prepare: true,
  });
}

/** Prefixes of secrets a response may show once (webhook and link signing secrets, keys). */
const SECRET_PATTERN = /^(?:whsec|whsk|lsk|sk_live|sk_test)_/;

/**
 * The body to keep for replays, as JSON: every secret replaced by null. Note: a secret is shown to
 * its owner in the one response and never copied into the replay table; a client that lost the
 * first response reads the current secret from its owner-only route again.
 */
export function replayJson(body: unknown): string {
  return JSON.stringify(body, (_key, value: unknown) =>
    typeof value === 'string' && SECRET_PATTERN.test(value) ? null : value,
  );
}

/** Deletes keys past the 24-hour replay window. */
export async function pruneIdempotencyKeys(db: Database): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, sql`now() - interval '24 hours'`));
}
