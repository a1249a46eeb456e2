// Merchant accounts: sign-up, sign-in and sign-out; passwords as argon2id hashes, sessions in Postgres.
// Note: a password is set here (sign-up) and by the account module (change, reset), both held to
// the password policy; the local demo merchant (demo-seed.ts) is written straight to the database.
import {
  ACCOUNT_EMAIL_MESSAGES,
  ACCOUNT_MESSAGES,
  type SignIn,
  type SignUpWithEmail,
  TOTP_MESSAGES,
} from '@store/shared';
import { eq, lt } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { sessions, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken, newSessionToken, type SessionUser, sessionExpiry } from '../../http/session.ts';
import { checkSecondFactor, codeRefusal } from '../account/second-factor.ts';
import { assertPasswordAllowed } from './password-policy.ts';

/** A signed-in merchant and the token of the new session (for the cookie only). */
export interface SignedIn {
  user: SessionUser;
  token: string;
}

// Note: each argon2id hash or check takes 64 MB for tens of milliseconds; at most two at once
// (one per core), the rest wait in line, so a burst of sign-ins cannot take the memory of hundreds.
const ARGON2_CONCURRENCY = 2;
let argon2Running = 0;
const argon2Waiting: Array<() => void> = [];
async function withArgon2Slot<T>(work: () => Promise<T>): Promise<T> {
  if (argon2Running >= ARGON2_CONCURRENCY)
    await new Promise<void>((resolve) => argon2Waiting.push(resolve));
  else argon2Running += 1;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, or is freed.
    const next = argon2Waiting.shift();
    if (next) next();
    else argon2Running -= 1;
  }
}

/** An argon2id hash of a password (two at a time at most). */
export const hashPassword = (password: string) =>
  withArgon2Slot(() => Bun.password.hash(password, { algorithm: 'argon2id' }));
/** Whether `password` matches an argon2id hash. */
export const verifyPassword = (password: string, hash: string) =>
  withArgon2Slot(() => Bun.password.verify(password, hash));
// Note: an unknown username still costs one hash check, so timing does not tell which usernames exist.
let dummyHash: Promise<string> | undefined;
const dummyPasswordHash = () => {
  dummyHash ??= hashPassword('not a real password');
  return dummyHash;
};

// Note: a new session expires after the idle timeout; each use slides it (see session.ts). It
// keeps the browser's User-Agent, for the account page's list of sessions.
async function createSession(
  db: Executor,
  userId: string,
  userAgent: string | null,
): Promise<string> {
  const token = newSessionToken();
  const now = new Date();
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    userAgent,
    expiresAt: sessionExpiry(now, now),
  });
  return token;
}

/**
 * Creates an account and signs it in: 422 when the password breaks the policy (password-policy.ts),
 * 409 when the username is taken. `allowed` runs once the password passed, before it is hashed.
 * With an email, its verification link is mailed (`mailLink`, in the same transaction); the answer
 * is the same whether or not another account has that email.
 */
export async function signUp(
  db: Database,
  input: SignUpWithEmail,
  options: {
    allowed?: () => void;
    userAgent?: string | null;
    mailLink?: (tx: Executor, user: { id: string }, email: string) => Promise<void>;
    /** Runs in the transaction that opens the first session (its browser becomes known). */
    onSession?: (tx: Executor, user: SessionUser) => Promise<void>;
  } = {},
): Promise<SignedIn> {
  await assertPasswordAllowed(input.username, input.password);
  options.allowed?.();
  const password = await hashPassword(input.password);
  // Note: an address another account gave without verifying it is not theirs: the new account
  // gets the link too, and keeps the address pending until it opens it (see verifyEmail). One that
  // another account verified is answered the same way (no enumeration): it stays pending here,
  // and its owner is told instead of a link being sent (see mailLink).
  const [holder] = input.email
    ? await db
        .select({ verifiedAt: users.emailVerifiedAt })
        .from(users)
        .where(eq(users.email, input.email))
        .limit(1)
    : [];
  try {
    return await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          username: input.username,
          password,
          email: holder ? null : (input.email ?? null),
        })
        .returning({ id: users.id, username: users.username });
      const created = user as SessionUser;
      if (input.email) await options.mailLink?.(tx, created, input.email);
      const token = await createSession(tx, created.id, options.userAgent ?? null);
      await options.onSession?.(tx, created);
      return { user: created, token };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_unique'))
      throw new AppError('already_exists', ACCOUNT_EMAIL_MESSAGES.emailTaken);
    if (isUniqueViolation(error))
      throw new AppError('already_exists', ACCOUNT_MESSAGES.usernameTaken);
    throw error;
  }
}

/** Why a sign-in with the right password was refused at its second step. */
export type SecondFactorRefusal = 'required' | 'wrong';

/**
 * Checks the password (and, once the account has two-step verification on, its code) and opens a
 * session; 401 with one message for any wrong pair. A right password without a code is 401 with
 * `details.secondFactor: 'required'`; a wrong code, `'wrong'`.
 */
export async function signIn(
  db: Database,
  input: SignIn,
  userAgent: string | null = null,
  /** Runs in the transaction that opens the session (the device check and its audit entry). */
  onSession?: (tx: Executor, user: SessionUser) => Promise<void>,
): Promise<SignedIn> {
  const [user] = await db.select().from(users).where(eq(users.username, input.username)).limit(1);
  const valid = await verifyPassword(input.password, user?.password ?? (await dummyPasswordHash()));
  if (!user || !valid) throw new AppError('unauthorized', ACCOUNT_MESSAGES.invalidCredentials);
  if (user.totpEnabledAt) {
    if (!input.code)
      throw new AppError('unauthorized', TOTP_MESSAGES.signInCode, { secondFactor: 'required' });
    const check = await checkSecondFactor(db, user, input.code);
    if (check !== 'ok')
      throw new AppError('unauthorized', codeRefusal(check), { secondFactor: 'wrong' });
  }
  const signedIn = { id: user.id, username: user.username };
  const token = await db.transaction(async (tx) => {
    const opened = await createSession(tx, user.id, userAgent);
    await onSession?.(tx, signedIn);
    return opened;
  });
  return { user: signedIn, token };
}

/** Ends the session of this token (nothing happens for an unknown one). */
export async function endSession(db: Database, token: string | undefined): Promise<void> {
  if (token) await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/** Deletes sessions past their expiry. */
export async function pruneExpiredSessions(db: Database): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
}
