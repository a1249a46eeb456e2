// Routes (the account page, signed-in session only): GET /api/auth/account,
// POST /api/auth/account/email, POST /api/auth/account/email/resend, POST /api/auth/account/password,
// GET /api/auth/account/sessions, DELETE /api/auth/account/sessions/{id},
// POST /api/auth/account/sessions/end-others, POST /api/auth/account/totp/setup,
// POST /api/auth/account/totp/enable, POST /api/auth/account/totp/disable,
// PUT /api/auth/account/stores/{id}/notifications
// Note: under /api/auth/, so the Idempotency-Key store never keeps an answer of these (a TOTP secret,
// recovery codes); every one of them is safe to send again or answers 4xx the second time.
import {
  ACCOUNT_EMAIL_MESSAGES,
  AccountDoneSchema,
  AccountSessionSchema,
  AccountSettingsSchema,
  ChangeEmailSchema,
  ChangePasswordSchema,
  EnableTotpSchema,
  RecoveryCodesSchema,
  SecondFactorBodySchema,
  StoreNotificationsSchema,
  TotpSetupSchema,
} from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { tooManyAttempts } from '../../http/attempt-limiter.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { mailOriginOf } from '../../http/public-origin.ts';
import { RateLimiter } from '../../http/rate-limit.ts';
import { hashToken, sessionTokenOf } from '../../http/session.ts';
import {
  accountSettings,
  changeEmail,
  changePassword,
  disableTotp,
  enableTotp,
  endAccountSession,
  endOtherSessions,
  listSessions,
  resendVerification,
  setStoreNotifications,
  setUpTotp,
} from './service.ts';

const tags = ['account'];
const settings = registerResponseSchema('AccountSettings', AccountSettingsSchema);
const session = registerResponseSchema('AccountSession', AccountSessionSchema);
const totpSetup = registerResponseSchema('TotpSetup', TotpSetupSchema);
const recovery = registerResponseSchema('RecoveryCodes', RecoveryCodesSchema);
const done = registerResponseSchema('AccountDone', AccountDoneSchema);
const StoreNotificationsResponse = v.object({
  id: v.string(),
  name: v.string(),
  notifyPaidOrders: v.boolean(),
});
/** Verification mails one account may ask for in an hour (its own inbox, and ours, stay usable). */
const VERIFY_MAILS = { bucket: 'verify-email:account', max: 5, windowMs: 60 * 60 * 1000 };

/** The account page's API: a merchant's own account, from a signed-in session only. */
export const accountModule = ({ db, config }: AppDeps) => {
  const limiter = new RateLimiter(db);
  /** SHA-256 of this request's session token (its row in `sessions`). */
  const currentHash = (request: Request) => hashToken(sessionTokenOf(request) ?? '');
  return new Elysia({ name: 'account' })
    .use(accessPlugin(db))
    .get('/api/auth/account', async ({ user }) => accountSettings(db, user.id), {
      access: 'session',
      ...contract({
        tags,
        summary: 'Your account: email, two-step verification, your stores’ paid-order emails',
        ok: { 200: settings },
      }),
    })
    .post(
      '/api/auth/account/email',
      async ({ body, request, set, user }) => {
        const wait = await limiter.hit(VERIFY_MAILS, user.id);
        if (wait > 0) throw tooManyAttempts(set, wait, ACCOUNT_EMAIL_MESSAGES.verifyTooMany);
        return changeEmail(db, mailOriginOf(config, request), user.id, body);
      },
      {
        body: ChangeEmailSchema,
        access: 'session',
        ...contract({
          tags,
          summary:
            'Add or change your email: a verification link (24 hours) goes to it; a verified address stays until it is opened (replacing one needs `currentPassword`)',
          ok: { 200: done },
          errors: ['already_exists', 'rate_limited'],
        }),
      },
    )
    .post(
      '/api/auth/account/email/resend',
      async ({ request, set, user }) => {
        const wait = await limiter.hit(VERIFY_MAILS, user.id);
        if (wait > 0) throw tooManyAttempts(set, wait, ACCOUNT_EMAIL_MESSAGES.verifyTooMany);
        return resendVerification(db, mailOriginOf(config, request), user.id);
      },
      {
        access: 'session',
        ...contract({
          tags,
          summary: 'Send the verification link again (the earlier one stops working)',
          ok: { 200: done },
          errors: ['invalid_state', 'rate_limited'],
        }),
      },
    )
    .post(
      '/api/auth/account/password',
      async ({ body, request, user }) =>
        changePassword(db, user.id, currentHash(request), body, mailOriginOf(config, request)),
      {
        body: ChangePasswordSchema,
        access: 'session',
        ...contract({
          tags,
          summary:
            'Change your password (the current one required); your other sessions end, this one stays',
          ok: { 200: done },
        }),
      },
    )
    .get(
      '/api/auth/account/sessions',
      async ({ request, user }) => listSessions(db, user.id, currentHash(request)),
      {
        access: 'session',
        ...contract({
          tags,
          summary: 'Your signed-in sessions (browser, since, last seen, this device)',
          ok: { 200: v.array(session) },
        }),
      },
    )
    .delete(
      '/api/auth/account/sessions/:id',
      async ({ params, user }) => endAccountSession(db, user.id, params.id),
      {
        access: 'session',
        ...contract({
          tags,
          summary: 'End one of your sessions (that device is signed out at its next request)',
          ok: { 200: done },
          errors: ['not_found'],
        }),
      },
    )
    .post(
      '/api/auth/account/sessions/end-others',
      async ({ request, user }) => endOtherSessions(db, user.id, currentHash(request)),
      {
        access: 'session',
        ...contract({
          tags,
          summary: 'End every session of yours but this one',
          ok: { 200: done },
        }),
      },
    )
    .post('/api/auth/account/totp/setup', async ({ user }) => setUpTotp(db, user.id), {
      access: 'session',
      ...contract({
        tags,
        summary:
          'Start two-step verification: a new secret (text and otpauth:// URI for a QR code), on once a code proves it',
        ok: { 200: totpSetup },
        errors: ['invalid_state'],
      }),
    })
    .post(
      '/api/auth/account/totp/enable',
      async ({ body, request, user }) =>
        enableTotp(db, user.id, body.code, body.currentPassword, mailOriginOf(config, request)),
      {
        body: EnableTotpSchema,
        access: 'session',
        ...contract({
          tags,
          summary:
            'Turn two-step verification on with a code from the app: 10 single-use recovery codes, shown this once',
          ok: { 200: recovery },
          errors: ['invalid_state', 'rate_limited'],
        }),
      },
    )
    .post(
      '/api/auth/account/totp/disable',
      async ({ body, request, user }) =>
        disableTotp(db, user.id, body.code, mailOriginOf(config, request)),
      {
        body: SecondFactorBodySchema,
        access: 'session',
        ...contract({
          tags,
          summary: 'Turn two-step verification off with a code (or a recovery code)',
          ok: { 200: done },
          errors: ['invalid_state', 'rate_limited'],
        }),
      },
    )
    .put(
      '/api/auth/account/stores/:id/notifications',
      async ({ params, body, user }) =>
        setStoreNotifications(db, user.id, params.id.slice(0, 64), body.notifyPaidOrders),
      {
        body: StoreNotificationsSchema,
        access: 'session',
        ...contract({
          tags,
          summary: 'Turn the email to you on each paid order of your store on or off',
          ok: { 200: registerResponseSchema('StoreNotifications', StoreNotificationsResponse) },
          errors: ['not_found'],
        }),
      },
    );
};
