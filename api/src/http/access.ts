// Who may call a route, said once: the `access` macro sets both the guard and the OpenAPI
// `security` (and, for a session-only route, its documented 403).
import { ACCOUNT_MESSAGES, API_KEY_MESSAGES } from '@store/shared';
import { Elysia } from 'elysia';
import type { Database } from '../db/client.ts';
import { requireSecondFactor } from '../modules/account/second-factor.ts';
import { AppError } from './errors.ts';
import { bearerTokenOf, type SessionUser, signedInGuard, userOfRequest } from './session.ts';

/**
 * Who may call a route: anyone (`public`); anyone, with more for the owner (`optional`: the
 * handler asks `currentUser()`); the signed-in merchant by session cookie or API key
 * (`merchant`), or by API key only (`apiKey`: an integrator's server, never a browser); the merchant signed in with a session only (`session`, or `{ session: refusal }`
 * for the 403 an API key gets: what a leaked key must not do); or the owner in a session with a
 * fresh second factor once two-step verification is on (`{ secondFactor: refusal }`).
 */
export type Access =
  | 'public'
  | 'optional'
  | 'merchant'
  | 'apiKey'
  | 'session'
  | { session: string }
  | { secondFactor: string };

/** The OpenAPI `security` (and the 403 of a session-only route) of `access`. */
export function accessDetail(access: Access): Record<string, unknown> {
  const session = { sessionCookie: [] };
  const key = { apiKey: [] };
  if (access === 'public') return { security: [] };
  if (access === 'optional') return { security: [{}, session, key] };
  if (access === 'merchant') return { security: [session, key] };
  if (access === 'apiKey') return { security: [key] };
  return { security: [session], 'x-error-codes': ['forbidden'] };
}

/** The 401 of an `apiKey` route called without one. */
export const API_KEY_REQUIRED = 'An API key is required: Authorization: Bearer sk_…';

/** True when `access` needs a signed-in merchant. */
const signedIn = (access: Access) => access !== 'public' && access !== 'optional';

/** The 403 text an API key gets on a session-only route. */
function refusalOf(access: Access): string | undefined {
  if (typeof access === 'object') return 'session' in access ? access.session : access.secondFactor;
  return access === 'session' ? API_KEY_MESSAGES.sessionRequired : undefined;
}

/**
 * The `access` macro. A signed-in route is refused 401 before its body is read (a `transform`
 * hook, so an anonymous client never learns what the body must be), and gets `user`, the merchant
 * of the request; a session-only route refuses an API key 403, and a second-factor route then asks
 * for a fresh code.
 */
export const accessPlugin = (db: Database) => {
  const guard = signedInGuard(db);
  const keyGuard = async ({ request }: { request: Request }) => {
    if (bearerTokenOf(request) === undefined) throw new AppError('unauthorized', API_KEY_REQUIRED);
    await guard({ request });
  };
  return new Elysia().macro({
    access: (access: Access) => {
      const detail = accessDetail(access);
      if (!signedIn(access)) return { detail };
      const refusal = refusalOf(access);
      const secondFactor = typeof access === 'object' && 'secondFactor' in access;
      return {
        detail,
        transform: access === 'apiKey' ? keyGuard : guard,
        resolve: async ({ request }: { request: Request }): Promise<{ user: SessionUser }> => {
          const user = await userOfRequest(db, request);
          if (!user) throw new AppError('unauthorized', ACCOUNT_MESSAGES.signInRequired);
          if (access === 'apiKey' && bearerTokenOf(request) === undefined)
            throw new AppError('unauthorized', API_KEY_REQUIRED);
          if (refusal !== undefined && bearerTokenOf(request) !== undefined)
            throw new AppError('forbidden', refusal);
          if (secondFactor) await requireSecondFactor(db, user, request);
          return { user };
        },
      };
    },
  });
};
