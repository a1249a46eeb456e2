// Merchant accounts: sign-up, sign-in and sign-out; passwords as argon2id hashes, sessions in Postgres.
// Note: a password is set only here (sign-up), so only here is it held to the password policy;
// the local demo merchant (demo-seed.ts) is written straight to the database and exempt.
import { ACCOUNT_MESSAGES, type Credentials, type SignUp } from '@store/shared';
import { eq, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { sessions, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken, newSessionToken, type SessionUser, sessionExpiry } from '../../http/session.ts';
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

const hashPassword = (password: string) =>
  withArgon2Slot(() => Bun.password.hash(password, { algorithm: 'argon2id' }));
const verifyPassword = (password: string, hash: string) =>
  withArgon2Slot(() => Bun.password.verify(password, hash));
// Note: an unknown username still costs one hash check, so timing does not tell which usernames exist.
let dummyHash: Promise<string> | undefined;
const dummyPasswordHash = () => {
  dummyHash ??= hashPassword('not a real password');
  return dummyHash;
};

// Note: a new session expires after the idle timeout; each use slides it (see session.ts).
async function createSession(db: Database, userId: string): Promise<string> {
  const token = newSessionToken();
  const now = new Date();
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    createdAt: now,
    expiresAt: sessionExpiry(now, now),
  });
  return token;
}

/**
 * Creates an account and signs it in: 422 when the password breaks the policy (password-policy.ts),
 * 409 when the username is taken. `allowed` runs once the password passed, before it is hashed.
 */
export async function signUp(
  db: Database,
  input: SignUp,
  allowed: () => void = () => {},
): Promise<SignedIn> {
  await assertPasswordAllowed(input.username, input.password);
  allowed();
  const password = await hashPassword(input.password);
  try {
    const [user] = await db
      .insert(users)
      .values({ username: input.username, password })
      .returning({ id: users.id, username: users.username });
    const created = user as SessionUser;
    return { user: created, token: await createSession(db, created.id) };
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('already_exists', ACCOUNT_MESSAGES.usernameTaken);
    throw error;
  }
}

/** Checks the password and opens a session; 401 with one message for any wrong pair. */
export async function signIn(db: Database, input: Credentials): Promise<SignedIn> {
  const [user] = await db.select().from(users).where(eq(users.username, input.username)).limit(1);
  const valid = await verifyPassword(input.password, user?.password ?? (await dummyPasswordHash()));
  if (!user || !valid) throw new AppError('unauthorized', ACCOUNT_MESSAGES.invalidCredentials);
  return {
    user: { id: user.id, username: user.username },
    token: await createSession(db, user.id),
  };
}

/** Ends the session of this token (nothing happens for an unknown one). */
export async function endSession(db: Database, token: string | undefined): Promise<void> {
  if (token) await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/** Deletes sessions past their expiry. */
export async function pruneExpiredSessions(db: Database): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
}
