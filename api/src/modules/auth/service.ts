// Merchant accounts: sign-up, sign-in and sign-out; passwords as argon2id hashes, sessions in Postgres.
import { ACCOUNT_MESSAGES, type Credentials, type SignUp } from '@store/shared';
import { eq, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { sessions, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import {
  hashToken,
  newSessionToken,
  SESSION_TTL_MS,
  type SessionUser,
} from '../../http/session.ts';

/** A signed-in merchant and the token of the new session (for the cookie only). */
export interface SignedIn {
  user: SessionUser;
  token: string;
}

const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: 'argon2id' });
// Note: an unknown username still costs one hash check, so timing does not tell which usernames exist.
let dummyHash: Promise<string> | undefined;
const dummyPasswordHash = () => {
  dummyHash ??= hashPassword('not a real password');
  return dummyHash;
};

async function createSession(db: Database, userId: string): Promise<string> {
  const token = newSessionToken();
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  return token;
}

/** Creates an account and signs it in; 409 when the username is taken. */
export async function signUp(db: Database, input: SignUp): Promise<SignedIn> {
  const password = await hashPassword(input.password);
  try {
    const [user] = await db
      .insert(users)
      .values({ username: input.username, password })
      .returning({ id: users.id, username: users.username });
    const created = user as SessionUser;
    return { user: created, token: await createSession(db, created.id) };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', ACCOUNT_MESSAGES.usernameTaken);
    throw error;
  }
}

/** Checks the password and opens a session; 401 with one message for any wrong pair. */
export async function signIn(db: Database, input: Credentials): Promise<SignedIn> {
  const [user] = await db.select().from(users).where(eq(users.username, input.username)).limit(1);
  const valid = await Bun.password.verify(
    input.password,
    user?.password ?? (await dummyPasswordHash()),
  );
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
