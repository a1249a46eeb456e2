// Merchant accounts: email, password rules, second factor. The bodies of the account routes
// (sign-up's email, verification and reset links, the account page's changes, TOTP codes) and the
// texts a merchant reads about them.
import * as v from 'valibot';
import { ACCOUNT_MESSAGES } from './messages.ts';
import { ApiKeySchema } from './schemas/api-key.ts';
import { missingAsEmpty } from './schemas/common.ts';
import {
  CredentialsSchema,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  SignUpSchema,
} from './schemas/user.ts';

/** Longest email address (RFC 5321's path limit). */
export const MAX_ACCOUNT_EMAIL_LENGTH = 254;
/** How long an email verification link works. */
export const VERIFY_EMAIL_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a password reset link works. */
export const RESET_PASSWORD_TTL_MS = 60 * 60 * 1000;
/** Recovery codes made when TOTP is turned on. */
export const RECOVERY_CODE_COUNT = 10;
/** Longest account token accepted (ours are 43 characters). */
export const MAX_ACCOUNT_TOKEN_LENGTH = 100;
/** The header a request sends its fresh second-factor code in. */
export const TOTP_CODE_HEADER = 'x-totp-code';

/** The texts of accounts beyond the sign-up and sign-in ones. */
export const ACCOUNT_EMAIL_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Enter a valid email address',
  emailTooLong: `Email must be at most ${MAX_ACCOUNT_EMAIL_LENGTH} characters`,
  emailTaken: 'That email address is already used by another account',
  emailUnchanged: 'That is already your email address',
  tokenRequired: 'This link is incomplete: open the link from the email again',
  linkInvalid: 'This link is invalid, already used or expired. Ask for a new one.',
  forgotSent:
    'If an account has that email address, we sent it a link to reset the password. The link works for 1 hour.',
  forgotTooMany: 'Too many password reset requests',
  verifySent: 'We sent a verification link to',
  verifyTooMany: 'Too many verification emails',
  currentPasswordRequired: 'Current password is required',
  currentPasswordWrong: 'Current password is incorrect',
  passwordUnchanged: 'Choose a password different from your current one',
  sessionNotFound: 'That session has already ended',
  storeNotFound: 'Store not found',
} as const;

/** The second factor's texts. */
export const TOTP_MESSAGES = {
  codeRequired: 'Enter the 6-digit code from your authenticator app',
  codeFormat: 'Enter the 6-digit code from your authenticator app, or a recovery code',
  codeWrong: 'That code is not valid: enter the current code from your authenticator app',
  signInCode:
    'Two-step verification is on: enter the 6-digit code from your authenticator app, or a recovery code',
  secondFactorRequired:
    'Two-step verification is on: enter the current code from your authenticator app to make this change',
  alreadyEnabled: 'Two-step verification is already on',
  notSetUp: 'Set up two-step verification first',
  notEnabled: 'Two-step verification is off',
  tooManyCodes: 'Too many wrong codes',
  /** A right code that has been used already (each code works once). */
  codeUsed:
    'That code has just been used: wait for the next code in your authenticator app (a new one every 30 seconds)',
} as const;

/** An account email: trimmed, lowercased, checked, at most 254 characters. */
export const AccountEmailSchema = v.pipe(
  missingAsEmpty(ACCOUNT_EMAIL_MESSAGES.emailRequired),
  v.trim(),
  v.nonEmpty(ACCOUNT_EMAIL_MESSAGES.emailRequired),
  v.maxLength(MAX_ACCOUNT_EMAIL_LENGTH, ACCOUNT_EMAIL_MESSAGES.emailTooLong),
  v.email(ACCOUNT_EMAIL_MESSAGES.emailInvalid),
  v.toLowerCase(),
);

const passwordField = (required: string) =>
  v.pipe(
    missingAsEmpty(required),
    v.nonEmpty(required),
    v.maxLength(MAX_PASSWORD_LENGTH, ACCOUNT_MESSAGES.passwordTooLong),
  );

const newPasswordField = v.pipe(
  passwordField(ACCOUNT_MESSAGES.passwordRequired),
  v.minLength(MIN_PASSWORD_LENGTH, ACCOUNT_MESSAGES.passwordTooShort),
);

const tokenField = v.pipe(
  missingAsEmpty(ACCOUNT_EMAIL_MESSAGES.tokenRequired),
  v.trim(),
  v.nonEmpty(ACCOUNT_EMAIL_MESSAGES.tokenRequired),
  v.maxLength(MAX_ACCOUNT_TOKEN_LENGTH, ACCOUNT_EMAIL_MESSAGES.linkInvalid),
);

/**
 * A TOTP code (6 digits) or a recovery code (10 letters and digits, a hyphen optional), spaces
 * dropped and lowercased.
 */
export const SecondFactorCodeSchema = v.pipe(
  missingAsEmpty(TOTP_MESSAGES.codeRequired),
  v.transform((code) => code.replace(/\s+/g, '').toLowerCase()),
  v.nonEmpty(TOTP_MESSAGES.codeRequired),
  v.regex(/^(\d{6}|[a-z0-9]{5}-?[a-z0-9]{5})$/, TOTP_MESSAGES.codeFormat),
);

/**
 * Sign-up body: the username and password, and the email the account is recovered with.
 * Note: the API takes an account without one (older clients and integrations); such an account is
 * asked for one in the admin until it has a verified one. The sign-up form requires it
 * (SignUpFormSchema).
 */
export const SignUpWithEmailSchema = v.object({
  ...SignUpSchema.entries,
  email: v.optional(AccountEmailSchema),
});
/** Sign-up body with its email. */
export type SignUpWithEmail = v.InferOutput<typeof SignUpWithEmailSchema>;

/** The sign-up form: the email is required there. */
export const SignUpFormSchema = v.object({ ...SignUpSchema.entries, email: AccountEmailSchema });

/** Sign-in body: username, password and, once two-step verification is on, its code. */
export const SignInSchema = v.object({
  ...CredentialsSchema.entries,
  code: v.optional(SecondFactorCodeSchema),
});
/** Sign-in body. */
export type SignIn = v.InferOutput<typeof SignInSchema>;

/** POST /api/auth/forgot-password. */
export const ForgotPasswordSchema = v.object({ email: AccountEmailSchema });
/**
 * POST /api/auth/reset-password: the emailed link's token, the new password, and whether to revoke
 * every API key of the account too (recovering an account is when a key may be in someone else's
 * hands; left out: the keys stay).
 */
export const ResetPasswordSchema = v.object({
  token: tokenField,
  password: newPasswordField,
  revokeApiKeys: v.optional(v.boolean('revokeApiKeys must be true or false'), false),
});
/** POST /api/auth/verify-email: the emailed link's token. */
export const VerifyEmailSchema = v.object({ token: tokenField });
/** POST /api/account/password. */
export const ChangePasswordSchema = v.object({
  currentPassword: passwordField(ACCOUNT_EMAIL_MESSAGES.currentPasswordRequired),
  newPassword: newPasswordField,
});
/**
 * POST /api/account/email: the new address and the current password (a stolen session cannot add
 * its own address and reset the password; the service refuses without it).
 */
export const ChangeEmailSchema = v.object({
  email: AccountEmailSchema,
  currentPassword: v.optional(
    v.pipe(v.string(), v.maxLength(MAX_PASSWORD_LENGTH, ACCOUNT_MESSAGES.passwordTooLong)),
  ),
});
/** Bodies that carry a second-factor code (disable). */
export const SecondFactorBodySchema = v.object({ code: SecondFactorCodeSchema });
/** POST /api/auth/account/totp/enable: the app's code and the account's password. */
export const EnableTotpSchema = v.object({
  code: SecondFactorCodeSchema,
  currentPassword: passwordField(ACCOUNT_EMAIL_MESSAGES.currentPasswordRequired),
});
/** PUT /api/account/stores/{id}/notifications. */
export const StoreNotificationsSchema = v.object({
  notifyPaidOrders: v.boolean('notifyPaidOrders must be true or false'),
});

/** A signed-in session of the account, as the account page lists it. */
export const AccountSessionSchema = v.object({
  id: v.string(),
  userAgent: v.nullable(v.string()),
  createdAt: v.string(),
  lastSeenAt: v.nullable(v.string()),
  current: v.boolean(),
});
/** One session. */
export type AccountSession = v.InferOutput<typeof AccountSessionSchema>;

/** GET /api/account: what the account page shows. */
export const AccountSettingsSchema = v.object({
  username: v.string(),
  /** The verified address, or the one given and not yet verified. */
  email: v.nullable(v.string()),
  emailVerified: v.boolean(),
  /** A new address waiting for its link to be opened (the verified one stays until then). */
  pendingEmail: v.nullable(v.string()),
  passwordChangedAt: v.nullable(v.string()),
  totpEnabled: v.boolean(),
  recoveryCodesLeft: v.number(),
  stores: v.array(v.object({ id: v.string(), name: v.string(), notifyPaidOrders: v.boolean() })),
});
/** The account page's data. */
export type AccountSettings = v.InferOutput<typeof AccountSettingsSchema>;

/** An answer that only says what happened (sent a link, ended sessions…). */
export const AccountDoneSchema = v.object({ message: v.string() });
/**
 * POST /api/auth/reset-password/check: the link works, and the account's API keys that still
 * work, for the owner to review (and revoke with the reset).
 */
export const ResetLinkCheckSchema = v.object({
  message: v.string(),
  apiKeys: v.array(ApiKeySchema),
});
/** A reset link's check. */
export type ResetLinkCheck = v.InferOutput<typeof ResetLinkCheckSchema>;
/** POST /api/account/totp/setup: the secret as text and as an otpauth:// URI for a QR code. */
export const TotpSetupSchema = v.object({ secret: v.string(), uri: v.string() });
/** POST /api/account/totp/enable: the recovery codes, shown this once. */
export const RecoveryCodesSchema = v.object({ recoveryCodes: v.array(v.string()) });

/** A short readable name of a browser's User-Agent ("Chrome on Android"), or the raw text cut. */
export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\/|CriOS\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : undefined;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Mac OS X|Macintosh/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /CrOS/.test(userAgent)
            ? 'ChromeOS'
            : /Linux/.test(userAgent)
              ? 'Linux'
              : undefined;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent.slice(0, 60);
}
