// The account calls of the web app: password reset and email verification links, the account page
// (email, password, sessions, two-step verification, paid-order emails). Answers are checked
// against the shared schemas so an API change shows as one clear error.
import {
  AccountDoneSchema,
  type AccountSession,
  AccountSessionSchema,
  type AccountSettings,
  AccountSettingsSchema,
  type ApiKey,
  RecoveryCodesSchema,
  ResetLinkCheckSchema,
  TOTP_CODE_HEADER,
  TotpSetupSchema,
} from '@store/shared';
import * as v from 'valibot';
import { ApiError, apiRequest } from '../lib/api.ts';

const message = async (method: string, path: string, body?: unknown) =>
  v.parse(AccountDoneSchema, await apiRequest(method, path, body)).message;

/** POST /api/auth/forgot-password: the same answer whether or not the address has an account. */
export const requestReset = (email: string) =>
  message('POST', '/api/auth/forgot-password', { email });
/**
 * POST /api/auth/reset-password/check: the account's API keys that still work, to review; throws
 * (400) when the link no longer works.
 */
export async function checkResetLink(token: string): Promise<ApiKey[]> {
  const answer = await apiRequest('POST', '/api/auth/reset-password/check', { token });
  return v.parse(ResetLinkCheckSchema, answer).apiKeys;
}
/**
 * POST /api/auth/reset-password: the new password; every session of the account ends, and every
 * API key too when `revokeApiKeys`. Answers what happened.
 */
export const resetPassword = (token: string, password: string, revokeApiKeys: boolean) =>
  message('POST', '/api/auth/reset-password', { token, password, revokeApiKeys });
/** POST /api/auth/verify-email. */
export const verifyEmail = (token: string) => message('POST', '/api/auth/verify-email', { token });

/** GET /api/auth/account. */
export async function fetchAccount(): Promise<AccountSettings> {
  return v.parse(AccountSettingsSchema, await apiRequest('GET', '/api/auth/account'));
}
/** POST /api/auth/account/email. */
export const changeEmail = (email: string, currentPassword?: string) =>
  message('POST', '/api/auth/account/email', {
    email,
    ...(currentPassword ? { currentPassword } : {}),
  });
/** POST /api/auth/account/email/resend. */
export const resendVerification = () => message('POST', '/api/auth/account/email/resend');
/** POST /api/auth/account/password. */
export const changePassword = (currentPassword: string, newPassword: string) =>
  message('POST', '/api/auth/account/password', { currentPassword, newPassword });
/** GET /api/auth/account/sessions. */
export async function fetchSessions(): Promise<AccountSession[]> {
  return v.parse(
    v.array(AccountSessionSchema),
    await apiRequest('GET', '/api/auth/account/sessions'),
  );
}
/** DELETE /api/auth/account/sessions/{id}. */
export const endSession = (id: string) =>
  message('DELETE', `/api/auth/account/sessions/${encodeURIComponent(id)}`);
/** POST /api/auth/account/sessions/end-others. */
export const endOtherSessions = () => message('POST', '/api/auth/account/sessions/end-others');
/** POST /api/auth/account/totp/setup. */
export async function setUpTotp() {
  return v.parse(TotpSetupSchema, await apiRequest('POST', '/api/auth/account/totp/setup'));
}
/** POST /api/auth/account/totp/enable: the recovery codes, shown once. */
export async function enableTotp(code: string, currentPassword: string) {
  const answer = await apiRequest('POST', '/api/auth/account/totp/enable', {
    code,
    currentPassword,
  });
  return v.parse(RecoveryCodesSchema, answer).recoveryCodes;
}
/** POST /api/auth/account/totp/disable. */
export const disableTotp = (code: string) =>
  message('POST', '/api/auth/account/totp/disable', { code });
/** PUT /api/auth/account/stores/{id}/notifications. */
export async function setStoreNotifications(storeId: string, notifyPaidOrders: boolean) {
  return apiRequest(
    'PUT',
    `/api/auth/account/stores/${encodeURIComponent(storeId)}/notifications`,
    {
      notifyPaidOrders,
    },
  );
}

/** The request option that carries a fresh second-factor code. */
export const withSecondFactor = (code: string | undefined) =>
  code ? { headers: { [TOTP_CODE_HEADER]: code.replace(/\s+/g, '') } } : {};

/** Whether an error is the API asking for (or refusing) the second-factor code. */
export function secondFactorAsked(error: unknown): 'required' | 'wrong' | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const asked = (error.details as { secondFactor?: unknown } | undefined)?.secondFactor;
  return asked === 'required' || asked === 'wrong' ? asked : undefined;
}
