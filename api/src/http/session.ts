// Merchant sessions: a random token in the `session` cookie, only its SHA-256 in Postgres; or a
// merchant's secret API key in `Authorization: Bearer sk_…` (also only its SHA-256 stored).
import { ACCOUNT_MESSAGES, API_KEY_MESSAGES, API_KEY_PATTERN, type StoreRole } from '@store/shared';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { Elysia } from 'elysia';
import type { Database } from '../db/client.ts';
import { apiKeys, sessions, users } from '../db/schema.ts';
import { AppError } from './errors.ts';

/** The signed-in merchant. */
export interface SessionUser {
  id: string;
  username: string;
  /** The API key of the request, when it came with one (id and recognisable prefix). */
  apiKeyId?: string;
  apiKeyPrefix?: string;
  /** The key's role (the most it may do in a store) and the one store it acts on (null: any). */
  apiKeyRole?: StoreRole;
  apiKeyStoreId?: string | null;
}

/** Name of the session cookie. */
export const SESSION_COOKIE = 'session';
/** Longest a session lasts, however much it is used: 30 days from sign-in. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session unused this long ends: 12 hours. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** Least time between two writes of a session's expiry (its slide on use). */
export const SESSION_SLIDE_STEP_MS = 60_000;

// Note: `expiresAt` itself slides (`lastSeenAt` is only what the account page shows). A session is created expiring in
// SESSION_IDLE_MS; each use moves it to min(createdAt + SESSION_TTL_MS, now + SESSION_IDLE_MS),
// written only when that moves it by more than SESSION_SLIDE_STEP_MS (at most one UPDATE a minute
// per session, and its WHERE keeps concurrent slides from moving it backwards).
/** When a session created at `createdAt` and used at `now` expires. */
export function sessionExpiry(createdAt: Date, now: Date = new Date()): Date {
  return new Date(Math.min(createdAt.getTime() + SESSION_TTL_MS, now.getTime() + SESSION_IDLE_MS));
}

/** Longest User-Agent kept on a session (what the account page shows to tell them apart). */
export const SESSION_USER_AGENT_MAX = 300;

/** The request's User-Agent as a session keeps it: cut short, null without one. */
export function userAgentOf(request: Request): string | null {
  const agent = request.headers.get('user-agent')?.trim();
  return agent ? agent.slice(0, SESSION_USER_AGENT_MAX) : null;
}

/** SHA-256 of a token, hex: what the sessions table stores. */
export function hashToken(token: string): string {
  return new Bun.CryptoHasher('sha256').update(token).digest('hex');
}

/** A fresh unguessable session token (32 random bytes, base64url). */
export function newSessionToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
}

/** The `session` cookie's value in a request, read from the raw header. */
export function sessionTokenOf(request: Request): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SESSION_COOKIE) return rest.join('=') || undefined;
  }
  return undefined;
}

/**
 * Set-Cookie value for a new session; `Secure` everywhere but local mode (plain http). Its Max-Age
 * is the absolute lifetime: the server ends idle sessions itself.
 */
export function sessionCookie(token: string, secure: boolean): string {
  const maxAge = Math.floor(SESSION_TTL_MS / 1000);
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
}

/** Set-Cookie value that makes the browser forget the session. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}

/** Least time between two writes of an API key's `last_used_at`. */
export const API_KEY_TOUCH_STEP_MS = 60_000;

/**
 * The credential of an `Authorization: Bearer …` header (trimmed), or undefined without one.
 * Note: any Bearer header counts, well-formed or not, so a mistyped key gets a clear 401 instead
 * of falling back to a cookie the integrator's server never had.
 */
export function bearerTokenOf(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  return match ? (match[1] ?? '').trim() : undefined;
}

// Note: one lookup per request, shared by the idempotency plugin (its scope) and the handler.
const lookups = new WeakMap<Request, Promise<SessionUser | null>>();

/**
 * The merchant of this request, by its API key (`Authorization: Bearer sk_…`, which wins over a
 * cookie) or its session cookie, or null; looked up at most once per request. An unknown or
 * revoked key rejects with a 401 that says so.
 */
export function userOfRequest(db: Database, request: Request): Promise<SessionUser | null> {
  let lookup = lookups.get(request);
  if (!lookup) {
    const bearer = bearerTokenOf(request);
    lookup =
      bearer === undefined
        ? findSessionUser(db, sessionTokenOf(request))
        : findApiKeyUser(db, bearer);
    lookups.set(request, lookup);
  }
  return lookup;
}

async function findApiKeyUser(db: Database, key: string): Promise<SessionUser> {
  if (!API_KEY_PATTERN.test(key)) throw new AppError('unauthorized', API_KEY_MESSAGES.invalid);
  const [row] = await db
    .select({
      keyId: apiKeys.id,
      keyPrefix: apiKeys.keyPrefix,
      keyRole: apiKeys.role,
      keyStoreId: apiKeys.storeId,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      id: users.id,
      username: users.username,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, hashToken(key)))
    .limit(1);
  if (!row) throw new AppError('unauthorized', API_KEY_MESSAGES.invalid);
  if (row.revokedAt) throw new AppError('unauthorized', API_KEY_MESSAGES.revoked);
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > API_KEY_TOUCH_STEP_MS) {
    const stale = new Date(now.getTime() - API_KEY_TOUCH_STEP_MS);
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiKeys.id, row.keyId),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale)),
        ),
      );
  }
  return {
    id: row.id,
    username: row.username,
    apiKeyId: row.keyId,
    apiKeyPrefix: row.keyPrefix,
    apiKeyRole: row.keyRole,
    apiKeyStoreId: row.keyStoreId,
  };
}

async function findSessionUser(db: Database, token: string | undefined) {
  if (!token || token.length > 100) return null;
  const tokenHash = hashToken(token);
  const now = new Date();
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row) return null;
  const expiresAt = sessionExpiry(row.createdAt, now);
  const slides = expiresAt.getTime() - row.expiresAt.getTime() > SESSION_SLIDE_STEP_MS;
  // Note: `last_seen_at` (the account page's "last seen") is written at most once a minute too.
  const seen = !row.lastSeenAt || now.getTime() - row.lastSeenAt.getTime() > SESSION_SLIDE_STEP_MS;
  if (slides || seen) {
    const stale = new Date(now.getTime() - SESSION_SLIDE_STEP_MS);
    await db
      .update(sessions)
      .set({
        lastSeenAt: sql`greatest(${sessions.lastSeenAt}, ${now.toISOString()}::timestamptz)`,
        expiresAt: sql`greatest(${sessions.expiresAt}, ${expiresAt.toISOString()}::timestamptz)`,
      })
      .where(
        and(
          eq(sessions.tokenHash, tokenHash),
          or(
            lt(sessions.expiresAt, expiresAt),
            isNull(sessions.lastSeenAt),
            lt(sessions.lastSeenAt, stale),
          ),
        ),
      );
  }
  return { id: row.id, username: row.username };
}

/**
 * Adds `currentUser()` (null when signed out), `requireUser()` (401 when signed out; a session or
 * an API key) and `requireSessionUser()` (a session only: 403 with an API key) to routes.
 */
export const sessionPlugin = (db: Database) =>
  new Elysia().derive({ as: 'scoped' }, ({ request }) => {
    const requireUser = async (): Promise<SessionUser> => {
      const user = await userOfRequest(db, request);
      if (!user) throw new AppError('unauthorized', ACCOUNT_MESSAGES.signInRequired);
      return user;
    };
    return {
      currentUser: () => userOfRequest(db, request),
      requireUser,
      /** `refusal`: what a caller with an API key is told (403). */
      requireSessionUser: async (
        refusal: string = API_KEY_MESSAGES.sessionRequired,
      ): Promise<SessionUser> => {
        const user = await requireUser();
        if (bearerTokenOf(request) !== undefined) throw new AppError('forbidden', refusal);
        return user;
      },
    };
  });

/** A route's `transform` hook: 401 without a session, before the body is validated. */
export const signedInGuard =
  (db: Database) =>
  async ({ request }: { request: Request }): Promise<void> => {
    if (!(await userOfRequest(db, request)))
      throw new AppError('unauthorized', ACCOUNT_MESSAGES.signInRequired);
  };
