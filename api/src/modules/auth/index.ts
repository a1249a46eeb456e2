// Routes: POST /api/auth/sign-up, POST /api/auth/sign-in, POST /api/auth/sign-out, GET /api/auth/me
import { CredentialsSchema, SignUpSchema } from '@store/shared';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../app.ts';
import { AttemptLimiter } from '../../http/attempt-limiter.ts';
import {
  clearedSessionCookie,
  sessionCookie,
  sessionPlugin,
  sessionTokenOf,
} from '../../http/session.ts';
import { endSession, signIn, signUp } from './service.ts';

const tags = ['auth'];
// Note: 10 wrong passwords for one username in 15 minutes, then a wait: argon2 makes each guess
// cost CPU, so guessing must stay slow both for the account and for the server.
const SIGN_IN_FAILURES = 10;
const SIGN_IN_WINDOW_MS = 15 * 60_000;

/** Merchant accounts: the session lives in an HttpOnly, SameSite=Lax cookie. */
export const authModule = ({ db, config }: AppDeps) => {
  const secure = !config.localMode;
  const signInLimiter = new AttemptLimiter(SIGN_IN_FAILURES, SIGN_IN_WINDOW_MS);
  return new Elysia({ name: 'auth' })
    .use(sessionPlugin(db))
    .post(
      '/api/auth/sign-up',
      async ({ body, set }) => {
        const { user, token } = await signUp(db, body);
        set.headers['set-cookie'] = sessionCookie(token, secure);
        set.status = 201;
        return { user };
      },
      { body: SignUpSchema, detail: { tags, summary: 'Create a merchant account and sign in' } },
    )
    .post(
      '/api/auth/sign-in',
      async ({ body, request, set }) => {
        const key = body.username;
        signInLimiter.check(key);
        const { user, token } = await signIn(db, body).catch((error: unknown) => {
          signInLimiter.fail(key);
          throw error;
        });
        signInLimiter.reset(key);
        // The new session replaces the one the browser had (no session fixation).
        await endSession(db, sessionTokenOf(request));
        set.headers['set-cookie'] = sessionCookie(token, secure);
        return { user };
      },
      { body: CredentialsSchema, detail: { tags, summary: 'Sign in with username and password' } },
    )
    .post(
      '/api/auth/sign-out',
      async ({ request, set }) => {
        await endSession(db, sessionTokenOf(request));
        set.headers['set-cookie'] = clearedSessionCookie(secure);
        return { signedOut: true };
      },
      { detail: { tags, summary: 'End the session and clear its cookie' } },
    )
    .get('/api/auth/me', async ({ requireUser }) => ({ user: await requireUser() }), {
      detail: { tags, summary: 'The signed-in merchant (401 when signed out)' },
    });
};
