// Merchant sessions: a random token in the `session` cookie, only its SHA-256 in Postgres.
import { ACCOUNT_MESSAGES } from '@store/shared';
import { and, eq, gt } from 'drizzle-orm';
import { Elysia } from 'elysia';
import type { Database } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import { AppError } from './errors.ts';

/** The signed-in merchant. */
export interface SessionUser {
  id: string;
  username: string;
}

/** Name of the session cookie. */
export const SESSION_COOKIE = 'session';
/** How long a session lasts after sign-in. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

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

/** Set-Cookie value for a new session; `Secure` everywhere but local mode (plain http). */
export function sessionCookie(token: string, secure: boolean): string {
  const maxAge = Math.floor(SESSION_TTL_MS / 1000);
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
}

/** Set-Cookie value that makes the browser forget the session. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}

// Note: one lookup per request, shared by the idempotency plugin (its scope) and the handler.
const lookups = new WeakMap<Request, Promise<SessionUser | null>>();

/** The merchant signed in on this request, or null; looked up at most once per request. */
export function userOfRequest(db: Database, request: Request): Promise<SessionUser | null> {
  let lookup = lookups.get(request);
  if (!lookup) {
    lookup = findSessionUser(db, sessionTokenOf(request));
    lookups.set(request, lookup);
  }
  return lookup;
}

async function findSessionUser(db: Database, token: string | undefined) {
  if (!token || token.length > 100) return null;
  const [row] = await db
    .select({ id: users.id, username: users.username })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
}

/** Adds `currentUser()` (null when signed out) and `requireUser()` (401 when signed out) to routes. */
export const sessionPlugin = (db: Database) =>
  new Elysia().derive({ as: 'scoped' }, ({ request }) => ({
    currentUser: () => userOfRequest(db, request),
    requireUser: async (): Promise<SessionUser> => {
      const user = await userOfRequest(db, request);
      if (!user) throw new AppError('unauthorized', ACCOUNT_MESSAGES.signInRequired);
      return user;
    },
  }));

/** A route's `transform` hook: 401 without a session, before the body is validated. */
export const signedInGuard =
  (db: Database) =>
  async ({ request }: { request: Request }): Promise<void> => {
    if (!(await userOfRequest(db, request)))
      throw new AppError('unauthorized', ACCOUNT_MESSAGES.signInRequired);
  };
