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
import { tooManyAttempts } from '../../http/attempt-limiter.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { mailOriginOf } from '../../http/public-origin.ts';
import { RateLimiter } from '../../http/rate-limit.ts';
import { hashToken, sessionPlugin, sessionTokenOf, signedInGuard } from '../../http/session.ts';
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
  const signedIn = signedInGuard(db);
  const limiter = new RateLimiter(db);
  /** SHA-256 of this request's session token (its row in `sessions`). */
  const currentHash = (request: Request) => hashToken(sessionTokenOf(request) ?? '');
  return new Elysia({ name: 'account' })
    .use(sessionPlugin(db))
    .get(
      '/api/auth/account',
      async ({ requireSessionUser }) => accountSettings(db, (await requireSessionUser()).id),
      {
        transform: signedIn,
        ...contract({
          tags,
          summary: 'Your account: email, two-step verification, your stores’ paid-order emails',
          ok: { 200: settings },
          access: 'session',
        }),
      },
    )
    .post(
      '/api/auth/account/email',
      async ({ body, request, requireSessionUser, set }) => {
        const user = await requireSessionUser();
        const wait = await limiter.hit(VERIFY_MAILS, user.id);
        if (wait > 0) throw tooManyAttempts(set, wait, ACCOUNT_EMAIL_MESSAGES.verifyTooMany);
        return changeEmail(db, mailOriginOf(config, request), user.id, body);
      },
      {
        transform: signedIn,
        body: ChangeEmailSchema,
        ...contract({
          tags,
          summary:
            'Add or change your email: a verification link (24 hours) goes to it; a verified address stays until it is opened (replacing one needs `currentPassword`)',
          ok: { 200: done },
          errors: ['already_exists', 'rate_limited'],
          access: 'session',
        }),
      },
    )
    .post(
      '/api/auth/account/email/resend',
      async ({ request, requireSessionUser, set }) => {
        const user = await requireSessionUser();
        const wait = await limiter.hit(VERIFY_MAILS, user.id);
        if (wait > 0) throw tooManyAttempts(set, wait, ACCOUNT_EMAIL_MESSAGES.verifyTooMany);
        return resendVerification(db, mailOriginOf(config, request), user.id);
      },
      {
        transform: signedIn,
        ...contract({
          tags,
          summary: 'Send the verification link again (the earlier one stops working)',
          ok: { 200: done },
          errors: ['invalid_state', 'rate_limited'],
          access: 'session',
        }),
      },
    )
    .post(
      '/api/auth/account/password',
      async ({ body, request, requireSessionUser }) =>
        changePassword(
          db,
          (await requireSessionUser()).id,
          currentHash(request),
          body,
          mailOriginOf(config, request),
        ),
      {
        transform: signedIn,
        body: ChangePasswordSchema,
        ...contract({
          tags,
          summary:
            'Change your password (the current one required); your other sessions end, this one stays',
          ok: { 200: done },
          access: 'session',
        }),
      },
    )
    .get(
      '/api/auth/account/sessions',
      async ({ request, requireSessionUser }) =>
        listSessions(db, (await requireSessionUser()).id, currentHash(request)),
      {
        transform: signedIn,
        ...contract({
          tags,
          summary: 'Your signed-in sessions (browser, since, last seen, this device)',
          ok: { 200: v.array(session) },
          access: 'session',
        }),
      },
    )
    .delete(
      '/api/auth/account/sessions/:id',
      async ({ params, requireSessionUser }) =>
        endAccountSession(db, (await requireSessionUser()).id, params.id),
      {
        transform: signedIn,
        ...contract({
          tags,
          summary: 'End one of your sessions (that device is signed out at its next request)',
          ok: { 200: done },
          errors: ['not_found'],
          access: 'session',
        }),
      },
    )
    .post(
      '/api/auth/account/sessions/end-others',
      async ({ request, requireSessionUser }) =>
        endOtherSessions(db, (await requireSessionUser()).id, currentHash(request)),
      {
        transform: signedIn,
        ...contract({
          tags,
          summary: 'End every session of yours but this one',
          ok: { 200: done },
          access: 'session',
        }),
      },
    )
    .post(
      '/api/auth/account/totp/setup',
      async ({ requireSessionUser }) => setUpTotp(db, (await requireSessionUser()).id),
      {
        transform: signedIn,
        ...contract({
          tags,
          summary:
            'Start two-step verification: a new secret (text and otpauth:// URI for a QR code), on once a code proves it',
          ok: { 200: totpSetup },
          errors: ['invalid_state'],
          access: 'session',
        }),
      },
    )
    .post(
      '/api/auth/account/totp/enable',
      async ({ body, request, requireSessionUser }) =>
        enableTotp(
          db,
          (await requireSessionUser()).id,
          body.code,
          body.currentPassword,
          mailOriginOf(config, request),
        ),
      {
        transform: signedIn,
        body: EnableTotpSchema,
        ...contract({
          tags,
          summary:
            'Turn two-step verification on with a code from the app: 10 single-use recovery codes, shown this once',
          ok: { 200: recovery },
          errors: ['invalid_state', 'rate_limited'],
          access: 'session',
        }),
      },
    )
    .post(
      '/api/auth/account/totp/disable',
      async ({ body, request, requireSessionUser }) =>
        disableTotp(db, (await requireSessionUser()).id, body.code, mailOriginOf(config, request)),
      {
        transform: signedIn,
        body: SecondFactorBodySchema,
        ...contract({
          tags,
          summary: 'Turn two-step verification off with a code (or a recovery code)',
          ok: { 200: done },
          errors: ['invalid_state', 'rate_limited'],
          access: 'session',
        }),
      },
    )
    .put(
      '/api/auth/account/stores/:id/notifications',
      async ({ params, body, requireSessionUser }) =>
        setStoreNotifications(
          db,
          (await requireSessionUser()).id,
          params.id.slice(0, 64),
          body.notifyPaidOrders,
        ),
      {
        transform: signedIn,
        body: StoreNotificationsSchema,
        ...contract({
          tags,
          summary: 'Turn the email to you on each paid order of your store on or off',
          ok: { 200: registerResponseSchema('StoreNotifications', StoreNotificationsResponse) },
          errors: ['not_found'],
          access: 'session',
        }),
      },
    );
};
