// Routes: POST /api/auth/sign-up, POST /api/auth/sign-in, POST /api/auth/sign-out, GET /api/auth/me,
// POST /api/auth/forgot-password, POST /api/auth/reset-password/check,
// POST /api/auth/reset-password, POST /api/auth/verify-email
import {
  ACCOUNT_EMAIL_MESSAGES,
  AccountDoneSchema,
  AccountResponseSchema,
  ForgotPasswordSchema,
  ResetLinkCheckSchema,
  ResetPasswordSchema,
  SignedOutResponseSchema,
  SignInSchema,
  SignUpWithEmailSchema,
  VerifyEmailSchema,
} from '@store/shared';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { accessPlugin } from '../../http/access.ts';
import { tooManyAttempts } from '../../http/attempt-limiter.ts';
import { clientAddress, clientBucket, type RequestSource } from '../../http/client-address.ts';
import { AppError } from '../../http/errors.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { mailOriginOf } from '../../http/public-origin.ts';
import { RateLimiter } from '../../http/rate-limit.ts';
import {
  clearedSessionCookie,
  type SessionUser,
  sessionCookie,
  sessionTokenOf,
  userAgentOf,
} from '../../http/session.ts';
import {
  checkResetToken,
  mailLink,
  requestPasswordReset,
  resetPassword,
  verifyEmail,
} from '../account/service.ts';
import { auditActorOf } from '../audit/record.ts';
import { deviceCookie, deviceTokenOf, noteDevice } from './devices.ts';
import { AUTH_LIMITS, AuthLimits, forgotPasswordRateLimits, signUpRateLimits } from './limits.ts';
import { endSession, signIn, signUp } from './service.ts';

const tags = ['auth'];
const done = registerResponseSchema('AccountDone', AccountDoneSchema);
const resetCheck = registerResponseSchema('ResetLinkCheck', ResetLinkCheckSchema);

/** What a reset answers: the password changed, and how many API keys it revoked. */
export function resetDoneMessage(revokedApiKeys: number): string {
  const keys =
    revokedApiKeys === 0
      ? ''
      : revokedApiKeys === 1
        ? ' Your API key was revoked.'
        : ` Your ${revokedApiKeys} API keys were revoked.`;
  return `Password changed.${keys} Sign in with your new password.`;
}

/** Texts of the auth limits (each 429 message ends with "; try again in …"). */
export const AUTH_LIMIT_MESSAGES = {
  signIn: 'Too many failed sign-in attempts',
  signInBusy: 'Too many sign-in attempts at once',
  signUp: 'Too many sign-ups from your network',
} as const;

/** Merchant accounts: the session lives in an HttpOnly, SameSite=Lax cookie. */
export const authModule = ({ db, config }: AppDeps) => {
  const secure = !config.localMode;
  // Note: local mode is one developer's machine, where the e2e run alone signs up a dozen merchants
  // from 127.0.0.1 within minutes: it keeps every limit but allows 100 sign-ups an hour.
  const settings = config.localMode
    ? { ...AUTH_LIMITS, signUpTriesPerHour: 200, signUpsPerHour: 100 }
    : AUTH_LIMITS;
  const limits = new AuthLimits(db, settings);
  // Note: sign-ups are counted in Postgres, so that every API process sees the same counts.
  const signUps = signUpRateLimits(settings);
  const forgotLimits = forgotPasswordRateLimits();
  const limiter = new RateLimiter(db);
  const clientOf = (source: RequestSource) =>
    clientBucket(clientAddress(source, { trustProxy: config.trustProxy }));
  return (
    new Elysia({ name: 'auth' })
      // Note: in the app's store so that tests can see the sign-ins in flight.
      .state('authLimits', limits)
      .use(accessPlugin(db))
      .post(
        '/api/auth/sign-up',
        async ({ body, request, server, set }) => {
          const client = clientOf({ request, server });
          // Note: a client out of accounts is refused before its try counts; a refused try
          // counts (it never lengthens the window).
          const wait =
            (await limiter.waitMs(signUps.accounts, client)) ||
            (await limiter.hit(signUps.tries, client));
          if (wait > 0) throw tooManyAttempts(set, wait, AUTH_LIMIT_MESSAGES.signUp);
          const counted: Promise<number>[] = [];
          let device = deviceTokenOf(request);
          const { user, token } = await signUp(db, body, {
            allowed: () => {
              counted.push(limiter.hit(signUps.accounts, client));
            },
            userAgent: userAgentOf(request),
            onSession: async (tx, created) => {
              device = await noteDevice(tx, created.id, device);
            },
            mailLink: (tx, created, email) =>
              mailLink(tx, mailOriginOf(config, request), created, 'verify_email', email),
          }).finally(() => Promise.all(counted));
          set.headers['set-cookie'] = [
            sessionCookie(token, secure),
            deviceCookie(device as string, secure),
          ] as unknown as string;
          set.status = 201;
          return { user };
        },
        {
          body: SignUpWithEmailSchema,
          ...contract({
            tags,
            summary:
              'Create a merchant account and sign in (with an email: its verification link is mailed)',
            ok: { 201: AccountResponseSchema },
            errors: ['already_exists', 'rate_limited'],
          }),
        },
      )
      .post(
        '/api/auth/sign-in',
        async ({ body, request, server, set }) => {
          // The body is valid here: its caps (username 64, password 200) came first, so nothing
          // below ever sees an oversized value.
          const client = clientOf({ request, server });
          const account = body.username;
          if (!limits.startSignIn(client)) {
            // Note: a client that must wait is told so first, busy or not.
            const wait = await limits.backoff.waitMs(account, client);
            if (wait > 0) throw tooManyAttempts(set, wait, AUTH_LIMIT_MESSAGES.signIn);
            throw tooManyAttempts(set, 1000, AUTH_LIMIT_MESSAGES.signInBusy);
          }
          try {
            // Note: counted as a failure before the password is checked (so a burst sent to any
            // number of API processes at once cannot all pass the wait), given back when it was
            // not one.
            const { attempt, waitMs } = await limits.backoff.take(account, client);
            if (!attempt) throw tooManyAttempts(set, waitMs, AUTH_LIMIT_MESSAGES.signIn);
            let device = deviceTokenOf(request);
            const onSession = async (tx: Executor, user: SessionUser) => {
              const actor = auditActorOf({ request, server }, user, config);
              device = await noteDevice(tx, user.id, device, actor);
            };
            const { user, token } = await signIn(db, body, userAgentOf(request), onSession).catch(
              async (error: unknown) => {
                // Note: a right password still waiting for its code is not a failure.
                const waiting =
                  (error as AppError).details !== undefined &&
                  ((error as AppError).details as { secondFactor?: string }).secondFactor ===
                    'required';
                const failed =
                  error instanceof AppError && error.code === 'unauthorized' && !waiting;
                // Note: a give-back that fails leaves the attempt counted (the safe side); the
                // sign-in's own error is still the answer.
                if (!failed) await limits.backoff.giveBack(attempt).catch(() => undefined);
                throw error;
              },
            );
            // This client proved it knows the password: not a failure, and the account's wait
            // no longer holds it.
            await limits.backoff.giveBack(attempt, { clearPair: true });
            // The new session replaces the one the browser had (no session fixation).
            await endSession(db, sessionTokenOf(request));
            set.headers['set-cookie'] = [
              sessionCookie(token, secure),
              deviceCookie(device as string, secure),
            ] as unknown as string;
            return { user };
          } finally {
            limits.endSignIn(client);
          }
        },
        {
          body: SignInSchema,
          ...contract({
            tags,
            summary:
              'Sign in with username and password (and `code` once two-step verification is on: 401 with `details.secondFactor` without it)',
            ok: { 200: AccountResponseSchema },
            errors: ['unauthorized', 'rate_limited'],
          }),
        },
      )
      .post(
        '/api/auth/sign-out',
        async ({ request, set }) => {
          await endSession(db, sessionTokenOf(request));
          set.headers['set-cookie'] = clearedSessionCookie(secure);
          return { signedOut: true };
        },
        {
          ...contract({
            tags,
            summary: 'End the session and clear its cookie',
            ok: { 200: SignedOutResponseSchema },
          }),
        },
      )
      .get('/api/auth/me', async ({ user }) => ({ user }), {
        access: 'merchant',
        ...contract({
          tags,
          summary: 'The signed-in merchant (401 when signed out)',
          ok: { 200: AccountResponseSchema },
        }),
      })
      .post(
        '/api/auth/forgot-password',
        async ({ body, request, server, set }) => {
          const client = clientOf({ request, server });
          const wait =
            (await limiter.hit(forgotLimits.client, client)) ||
            (await limiter.hit(forgotLimits.email, body.email));
          if (wait > 0) throw tooManyAttempts(set, wait, ACCOUNT_EMAIL_MESSAGES.forgotTooMany);
          // Note: the same answer whether or not an account has this address (no enumeration).
          await requestPasswordReset(db, mailOriginOf(config, request), body.email);
          return { message: ACCOUNT_EMAIL_MESSAGES.forgotSent };
        },
        {
          body: ForgotPasswordSchema,
          ...contract({
            tags,
            summary:
              'Mail a single-use password reset link (1 hour) to the account with this verified email; the same answer for any address',
            ok: { 200: done },
            errors: ['rate_limited'],
          }),
        },
      )
      .post(
        '/api/auth/reset-password/check',
        async ({ body }) => ({
          message: 'This link works: choose a new password',
          apiKeys: await checkResetToken(db, body.token),
        }),
        {
          body: VerifyEmailSchema,
          ...contract({
            tags,
            summary:
              "Whether a password reset link still works (400 when used, expired or unknown), and the account's API keys that still work, to review",
            ok: { 200: resetCheck },
            errors: ['bad_request'],
          }),
        },
      )
      .post(
        '/api/auth/reset-password',
        async ({ body, request }) => {
          const { revokedApiKeys } = await resetPassword(db, body.token, body.password, {
            revokeApiKeys: body.revokeApiKeys,
            origin: mailOriginOf(config, request),
          });
          return { message: resetDoneMessage(revokedApiKeys) };
        },
        {
          body: ResetPasswordSchema,
          ...contract({
            tags,
            summary:
              'Set a new password with a reset link (single use); every session of the account ends, and every API key too with `revokeApiKeys: true`',
            ok: { 200: done },
            errors: ['bad_request'],
          }),
        },
      )
      .post(
        '/api/auth/verify-email',
        async ({ body, request }) => {
          const { email } = await verifyEmail(db, body.token, mailOriginOf(config, request));
          return { message: `${email} is verified` };
        },
        {
          body: VerifyEmailSchema,
          ...contract({
            tags,
            summary: 'Verify the email a link was sent to (single use, 24 hours)',
            ok: { 200: done },
            errors: ['bad_request', 'already_exists'],
          }),
        },
      )
  );
};
