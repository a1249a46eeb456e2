// A merchant's account beyond its password: the email address (verified by a single-use link),
// password reset by an emailed single-use link, the password and email changes, the signed-in
// sessions, the TOTP second factor and the stores' paid-order notices. Links are random tokens of
// which only the SHA-256 is stored.
import {
  ACCOUNT_EMAIL_MESSAGES as M,
  RECOVERY_CODE_COUNT,
  RESET_PASSWORD_TTL_MS,
  TOTP_MESSAGES,
  VERIFY_EMAIL_TTL_MS,
} from '@store/shared';
import { and, count, desc, eq, gt, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { accountTokens, recoveryCodes, sessions, stores, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken, newSessionToken } from '../../http/session.ts';
import { enqueueAccountNotice, enqueueEmailInUse } from '../../mail/notices.ts';
import { type AccountMailKind, enqueueAccountMail } from '../../mail/outbox.ts';
import { listApiKeys, revokeAllApiKeys } from '../api-keys/service.ts';
import { assertPasswordAllowed } from '../auth/password-policy.ts';
import { hashPassword, verifyPassword } from '../auth/service.ts';
import {
  checkSecondFactor,
  codeRefusal,
  newRecoveryCodes,
  newTotpSecret,
  storeRecoveryCodes,
} from './second-factor.ts';

type Purpose = AccountMailKind;

const TTL: Record<Purpose, number> = {
  verify_email: VERIFY_EMAIL_TTL_MS,
  reset_password: RESET_PASSWORD_TTL_MS,
};
const PAGE: Record<Purpose, string> = {
  verify_email: '/verify-email',
  reset_password: '/reset-password',
};

/**
 * Makes a single-use link for `purpose` and queues its mail to `email`. The account's earlier
 * unused links of that purpose stop working: only the newest one does. A verification link to an
 * address another account verified is not sent: that account is told someone tried to use it.
 */
export async function mailLink(
  tx: Executor,
  origin: string,
  user: { id: string },
  purpose: Purpose,
  email: string,
): Promise<void> {
  const now = new Date();
  await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.userId, user.id),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
      ),
    );
  const token = newSessionToken();
  await tx.insert(accountTokens).values({
    tokenHash: hashToken(token),
    userId: user.id,
    purpose,
    email,
    expiresAt: new Date(now.getTime() + TTL[purpose]),
    createdAt: now,
  });
  // Note: an address another account verified gets no link (it would only fail), and the one
  // asking is answered as for any address (no enumeration): its owner is told instead.
  const holder = purpose === 'verify_email' ? await verifiedHolder(tx, user.id, email) : undefined;
  if (holder) {
    await enqueueEmailInUse(tx, holder, email, { origin, at: now });
    return;
  }
  const url = `${origin}${PAGE[purpose]}?token=${encodeURIComponent(token)}`;
  await enqueueAccountMail(tx, { userId: user.id, kind: purpose, to: email, url }, now);
}

/** The other account that verified `email`, if any. */
async function verifiedHolder(tx: Executor, userId: string, email: string) {
  const [holder] = await tx
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(and(eq(users.email, email), ne(users.id, userId), isNotNull(users.emailVerifiedAt)))
    .limit(1);
  return holder;
}

/**
 * Uses up a link's token: its row when it is of `purpose`, unused and unexpired (it is marked used
 * in the same statement, so it works once however many requests race), else 400.
 */
async function useToken(tx: Executor, token: string, purpose: Purpose) {
  const [row] = await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .returning();
  if (!row) throw new AppError('bad_request', M.linkInvalid);
  return row;
}

/** A token's row while it still works (not used up). */
async function liveToken(db: Database, token: string, purpose: Purpose) {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  if (!row) throw new AppError('bad_request', M.linkInvalid);
  return row;
}

async function userRow(db: Executor, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError('unauthorized', 'Sign in to continue');
  return user;
}

/** 409 when another account has verified `email`. */
async function assertEmailFree(db: Executor, userId: string, email: string): Promise<void> {
  const [other] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), ne(users.id, userId), sql`email_verified_at is not null`))
    .limit(1);
  if (other) throw new AppError('already_exists', M.emailTaken);
}

/**
 * Sets the account's email. An account without a verified address takes it at once (unverified)
 * and is sent a link; one with a verified address keeps it until the link sent to the new one is
 * opened. The current password is required to replace a verified address.
 */
export async function changeEmail(
  db: Database,
  origin: string,
  userId: string,
  input: { email: string; currentPassword?: string | undefined },
): Promise<{ message: string }> {
  const user = await userRow(db, userId);
  if (user.email === input.email && user.emailVerifiedAt)
    throw new AppError('validation_failed', M.emailUnchanged);
  // Note: always, not only to replace a verified address: a stolen session that could add its own
  // address would then reset the password and keep the account.
  if (!input.currentPassword) throw new AppError('validation_failed', M.currentPasswordRequired);
  if (!(await verifyPassword(input.currentPassword, user.password)))
    throw new AppError('validation_failed', M.currentPasswordWrong);
  // Note: an address another account gave without verifying it is not theirs: this account may
  // still claim it, as a pending address (the link decides who owns it). One that another account
  // verified is answered the same way (no enumeration), and never becomes this account's.
  const [holder] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, input.email), ne(users.id, userId)))
    .limit(1);
  try {
    await db.transaction(async (tx) => {
      if (!user.emailVerifiedAt && !holder)
        await tx.update(users).set({ email: input.email }).where(eq(users.id, userId));
      await mailLink(tx, origin, user, 'verify_email', input.email);
    });
  } catch (error) {
    // Another account gave the same address without verifying it: it is not theirs yet either.
    if (isUniqueViolation(error)) throw new AppError('already_exists', M.emailTaken);
    throw error;
  }
  return { message: `${M.verifySent} ${input.email}` };
}

/** Sends the verification link again, to the address waiting for it. */
export async function resendVerification(
  db: Database,
  origin: string,
  userId: string,
): Promise<{ message: string }> {
  const settings = await accountSettings(db, userId);
  const email = settings.pendingEmail ?? (settings.emailVerified ? null : settings.email);
  if (!email) throw new AppError('invalid_state', 'There is no email address to verify');
  await db.transaction((tx) => mailLink(tx, origin, { id: userId }, 'verify_email', email));
  return { message: `${M.verifySent} ${email}` };
}

/**
 * Opens a verification link: the address it was sent to becomes the account's verified email. An
 * account that gave the same address without verifying it loses it (it never proved it).
 */
export async function verifyEmail(
  db: Database,
  token: string,
  origin: string | null = null,
): Promise<{ email: string }> {
  try {
    return await db.transaction(async (tx) => {
      const row = await useToken(tx, token, 'verify_email');
      await assertEmailFree(tx, row.userId, row.email);
      // Note: the address verified until now is told, before it stops being the account's.
      const [before] = await tx
        .select({ email: users.email, verifiedAt: users.emailVerifiedAt, username: users.username })
        .from(users)
        .where(eq(users.id, row.userId));
      if (before?.email && before.verifiedAt && before.email !== row.email)
        await enqueueAccountNotice(
          tx,
          row.userId,
          { kind: 'email_changed', username: before.username, from: before.email, to: row.email },
          { origin },
        );
      await tx
        .update(users)
        .set({ email: null })
        .where(
          and(eq(users.email, row.email), ne(users.id, row.userId), isNull(users.emailVerifiedAt)),
        );
      await tx
        .update(users)
        .set({ email: row.email, emailVerifiedAt: new Date() })
        .where(eq(users.id, row.userId));
      return { email: row.email };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('already_exists', M.emailTaken);
    throw error;
  }
}

/**
 * Sends a reset link to `email` when an account has it verified; nothing otherwise. The caller
 * answers the same either way (no enumeration).
 */
export async function requestPasswordReset(
  db: Database,
  origin: string,
  email: string,
): Promise<void> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), sql`email_verified_at is not null`))
    .limit(1);
  if (!user) return;
  await db.transaction((tx) => mailLink(tx, origin, user, 'reset_password', email));
}

/**
 * Whether a reset link still works (the reset page checks before asking for a password), and the
 * account's API keys that still work: the owner reviews them, and may revoke them with the reset.
 */
export async function checkResetToken(db: Database, token: string) {
  const found = await liveToken(db, token, 'reset_password');
  const keys = await listApiKeys(db, found.userId);
  return keys.filter((key) => key.revokedAt === null);
}

/**
 * Opens a reset link with the new password: the password policy first (a weak password does not
 * use the link up), then the link is used, the password replaced, every session ended and, when
 * asked, every API key revoked; answers how many keys that revoked.
 */
export async function resetPassword(
  db: Database,
  token: string,
  password: string,
  options: { revokeApiKeys: boolean; origin?: string | null },
): Promise<{ revokedApiKeys: number }> {
  const found = await liveToken(db, token, 'reset_password');
  const user = await userRow(db, found.userId);
  await assertPasswordAllowed(user.username, password);
  const hash = await hashPassword(password);
  return db.transaction(async (tx) => {
    await useToken(tx, token, 'reset_password');
    await tx
      .update(users)
      .set({ password: hash, passwordChangedAt: new Date() })
      .where(eq(users.id, user.id));
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    const revoked = options.revokeApiKeys ? await revokeAllApiKeys(tx, user.id) : 0;
    await enqueueAccountNotice(
      tx,
      user.id,
      { kind: 'password_changed', username: user.username, byReset: true },
      { origin: options.origin ?? null },
    );
    return { revokedApiKeys: revoked };
  });
}

/**
 * Changes the password: the current one is required and the new one follows the policy; every other
 * session of the account ends (this one stays), and unused reset links stop working.
 */
export async function changePassword(
  db: Database,
  userId: string,
  currentSessionHash: string,
  input: { currentPassword: string; newPassword: string },
  origin: string | null = null,
): Promise<{ message: string }> {
  const user = await userRow(db, userId);
  if (!(await verifyPassword(input.currentPassword, user.password)))
    throw new AppError('validation_failed', M.currentPasswordWrong);
  if (input.currentPassword === input.newPassword)
    throw new AppError('validation_failed', M.passwordUnchanged);
  await assertPasswordAllowed(user.username, input.newPassword);
  const hash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ password: hash, passwordChangedAt: new Date() })
      .where(eq(users.id, userId));
    await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, currentSessionHash)));
    await tx
      .update(accountTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(accountTokens.userId, userId),
          eq(accountTokens.purpose, 'reset_password'),
          isNull(accountTokens.usedAt),
        ),
      );
    await enqueueAccountNotice(
      tx,
      userId,
      { kind: 'password_changed', username: user.username, byReset: false },
      { origin },
    );
  });
  return { message: 'Password changed. Your other sessions were signed out.' };
}

/** What the account page shows. */
export async function accountSettings(db: Database, userId: string) {
  const user = await userRow(db, userId);
  const [pending] = await db
    .select({ email: accountTokens.email })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.userId, userId),
        eq(accountTokens.purpose, 'verify_email'),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(accountTokens.createdAt))
    .limit(1);
  const [codes] = await db
    .select({ left: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  const own = await db
    .select({ id: stores.id, name: stores.name, notifyPaidOrders: stores.notifyPaidOrders })
    .from(stores)
    .where(eq(stores.ownerId, userId))
    .orderBy(stores.createdAt);
  const pendingEmail = pending && pending.email !== user.email ? pending.email : null;
  // Note: an account with no address yet shows the one waiting for its link as its (unverified)
  // address, as after any sign-up: whether another account had it is not told.
  const email = user.email ?? pendingEmail;
  return {
    username: user.username,
    email,
    emailVerified: user.emailVerifiedAt !== null,
    pendingEmail: email === pendingEmail ? null : pendingEmail,
    passwordChangedAt: user.passwordChangedAt?.toISOString() ?? null,
    totpEnabled: user.totpEnabledAt !== null,
    recoveryCodesLeft: user.totpEnabledAt ? (codes?.left ?? 0) : 0,
    stores: own,
  };
}

/** A session's public id: derived from its stored hash, never the hash itself. */
const sessionIdOf = (tokenHash: string) => hashToken(`session-id:${tokenHash}`).slice(0, 32);

/** The account's sessions still open: the one asking (`current`) first, then by last use. */
export async function listSessions(db: Database, userId: string, currentSessionHash: string) {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sql`coalesce(${sessions.lastSeenAt}, ${sessions.createdAt})`));
  // Note: this device first, then the others by their last use.
  const ordered = [
    ...rows.filter((row) => row.tokenHash === currentSessionHash),
    ...rows.filter((row) => row.tokenHash !== currentSessionHash),
  ];
  return ordered.map((row) => ({
    id: sessionIdOf(row.tokenHash),
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: (row.lastSeenAt ?? row.createdAt).toISOString(),
    current: row.tokenHash === currentSessionHash,
  }));
}

/** Ends one session of the account (404 when it has no such session, or it already ended). */
export async function endAccountSession(
  db: Database,
  userId: string,
  sessionId: string,
): Promise<{ message: string }> {
  const rows = await db
    .select({ tokenHash: sessions.tokenHash })
    .from(sessions)
    .where(eq(sessions.userId, userId));
  const target = rows.find((row) => sessionIdOf(row.tokenHash) === sessionId);
  if (!target) throw new AppError('not_found', M.sessionNotFound);
  await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.tokenHash, target.tokenHash)));
  return { message: 'Session ended' };
}

/** Ends every session of the account but this one. */
export async function endOtherSessions(
  db: Database,
  userId: string,
  currentSessionHash: string,
): Promise<{ message: string }> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, currentSessionHash)))
    .returning({ tokenHash: sessions.tokenHash });
  return {
    message: ended.length === 1 ? 'Ended 1 other session' : `Ended ${ended.length} other sessions`,
  };
}

/**
 * Starts setting up TOTP: a new secret kept on the account (not yet on). 409 once it is on: it
 * must be turned off (with a code) before a new secret replaces it.
 */
export async function setUpTotp(db: Database, userId: string) {
  const user = await userRow(db, userId);
  if (user.totpEnabledAt) throw new AppError('invalid_state', TOTP_MESSAGES.alreadyEnabled);
  const created = newTotpSecret(user.username);
  await db.update(users).set({ totpSecret: created.secret }).where(eq(users.id, userId));
  return created;
}

/** Turns TOTP on once `code` proves the app has the secret; the recovery codes, shown this once. */
export async function enableTotp(
  db: Database,
  userId: string,
  code: string,
  currentPassword: string,
  origin: string | null = null,
) {
  const user = await userRow(db, userId);
  if (user.totpEnabledAt) throw new AppError('invalid_state', TOTP_MESSAGES.alreadyEnabled);
  if (!user.totpSecret) throw new AppError('invalid_state', TOTP_MESSAGES.notSetUp);
  // Note: a stolen session must not turn on its own authenticator and lock the owner out.
  if (!(await verifyPassword(currentPassword, user.password)))
    throw new AppError('validation_failed', M.currentPasswordWrong);
  // Note: only the authenticator's code here: there are no recovery codes yet.
  const check = /^\d{6}$/.test(code) ? await checkSecondFactor(db, user, code) : 'wrong';
  if (check !== 'ok') throw new AppError('validation_failed', codeRefusal(check));
  const codes = newRecoveryCodes(RECOVERY_CODE_COUNT);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ totpEnabledAt: new Date() }).where(eq(users.id, userId));
    await storeRecoveryCodes(tx, userId, codes);
    await enqueueAccountNotice(
      tx,
      userId,
      { kind: 'two_step_changed', username: user.username, enabled: true },
      { origin },
    );
  });
  return { recoveryCodes: codes };
}

/** Turns TOTP off with a code (or a recovery code): the secret and recovery codes go. */
export async function disableTotp(
  db: Database,
  userId: string,
  code: string,
  origin: string | null = null,
) {
  const user = await userRow(db, userId);
  if (!user.totpEnabledAt) throw new AppError('invalid_state', TOTP_MESSAGES.notEnabled);
  const check = await checkSecondFactor(db, user, code);
  if (check !== 'ok') throw new AppError('validation_failed', codeRefusal(check));
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null })
      .where(eq(users.id, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await enqueueAccountNotice(
      tx,
      userId,
      { kind: 'two_step_changed', username: user.username, enabled: false },
      { origin },
    );
  });
  return { message: 'Two-step verification is off' };
}

/** Turns a store's paid-order emails on or off (404 for a store that is not the merchant's). */
export async function setStoreNotifications(
  db: Database,
  userId: string,
  storeId: string,
  notifyPaidOrders: boolean,
) {
  const [store] = await db
    .update(stores)
    .set({ notifyPaidOrders })
    .where(and(sql`${stores.id}::text = ${storeId}`, eq(stores.ownerId, userId)))
    .returning({ id: stores.id, name: stores.name, notifyPaidOrders: stores.notifyPaidOrders });
  if (!store) throw new AppError('not_found', M.storeNotFound);
  return store;
}
