// The TOTP second factor (RFC 6238 through `otpauth`): a secret set up, then enabled once a code
// proves the authenticator app has it; ten single-use recovery codes (only their SHA-256 stored);
// `requireSecondFactor`, the gate of the changes a stolen session must not make alone (payout
// address, API keys) once an account has it on.
import { TOTP_CODE_HEADER, TOTP_MESSAGES } from '@store/shared';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Database, Executor } from '../../db/client.ts';
import { recoveryCodes, users } from '../../db/schema.ts';
import { backoffWaitSql, FAILURE_BACKOFF, waitText } from '../../http/attempt-limiter.ts';
import { AppError } from '../../http/errors.ts';
import { RateLimiter } from '../../http/rate-limit.ts';
import { hashToken, type SessionUser } from '../../http/session.ts';

/** The issuer an authenticator app shows next to the account. */
export const TOTP_ISSUER = 'Storefront';
/** Codes one step either side of now are accepted (clock drift of up to 30 s). */
const TOTP_WINDOW = 1;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function totpOf(secret: string, username: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: username,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  });
}

/** A new secret (160 bits, base32) and its otpauth:// URI for `username`. */
export function newTotpSecret(username: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(secret, username).toString() };
}

/** The otpauth:// URI of a stored secret. */
export const totpUri = (secret: string, username: string) => totpOf(secret, username).toString();

/** Length of a TOTP step. */
const TOTP_PERIOD_MS = 30_000;

/**
 * Whether `code` is the secret's code now (or one step either side): 'ok' and remembered as used
 * when it is newer than the last code the account used, 'used' when it is not (a code works once:
 * one seen over a shoulder or in a log cannot be sent again), 'wrong' otherwise. Note: the last
 * used step is a column, moved forward by one conditional UPDATE, so two API processes (or two
 * requests at once) never both take the same code.
 */
async function useTotpCode(
  db: Executor,
  userId: string,
  secret: string,
  code: string,
): Promise<CodeCheck> {
  if (!/^\d{6}$/.test(code)) return 'wrong';
  const now = Date.now();
  const delta = totpOf(secret, 'check').validate({
    token: code,
    window: TOTP_WINDOW,
    timestamp: now,
  });
  if (delta === null) return 'wrong';
  const step = Math.floor(now / TOTP_PERIOD_MS) + delta;
  const taken = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return taken.length > 0 ? 'ok' : 'used';
}

/**
 * The code of a secret `steps` periods from now (tests act as the authenticator app: each use
 * needs a newer step than the last, and one step either side of now is accepted).
 */
export const totpCodeAt = (secret: string, steps = 0) =>
  totpOf(secret, 'now').generate({ timestamp: Date.now() + steps * TOTP_PERIOD_MS });

/** A recovery code as stored and compared: lowercase, without its hyphen. */
const normalRecoveryCode = (code: string) => code.replace(/[\s-]+/g, '').toLowerCase();

/** Ten new recovery codes ("xxxxx-xxxxx", ~49 bits each). */
export function newRecoveryCodes(count: number): string[] {
  return Array.from({ length: count }, () => {
    const bytes = crypto.getRandomValues(new Uint8Array(10));
    const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Replaces the account's recovery codes with these (hashes only). */
export async function storeRecoveryCodes(tx: Executor, userId: string, codes: string[]) {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: hashToken(normalRecoveryCode(code)) })));
}

/** Uses one recovery code of the account; false when it is unknown or used. */
async function useRecoveryCode(db: Executor, userId: string, code: string): Promise<boolean> {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, hashToken(normalRecoveryCode(code))),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ userId: recoveryCodes.userId });
  return used.length > 0;
}

/** What a code turned out to be: right (and now used), right but used already, or wrong. */
export type CodeCheck = 'ok' | 'used' | 'wrong';

/** The message of a code that was refused. */
export const codeRefusal = (check: Exclude<CodeCheck, 'ok'>) =>
  check === 'used' ? TOTP_MESSAGES.codeUsed : TOTP_MESSAGES.codeWrong;

// Note: a 6-digit code is guessable in a million tries; wrong codes of one account slow it down:
// 5 free, then FAILURE_BACKOFF's doubling wait. Counted in the account's row, so every API process
// sees the same count.
const FREE_WRONG_CODES = 5;
const forgotten = sql`${users.totpFailedAt} <= now() - ${`${FAILURE_BACKOFF.forgetMs} milliseconds`}::interval`;
const codeWait = sql.raw(
  backoffWaitSql('"users"."totp_failures"', '"users"."totp_failed_at"', FREE_WRONG_CODES),
);

/** Milliseconds the account must wait before its next code is checked (0: now). */
async function secondFactorWait(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({
      wait: sql<number>`case when ${users.totpFailedAt} is null or ${forgotten} then 0
        else greatest(0, ${codeWait}) end`,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return Number(row?.wait ?? 0);
}

/**
 * Takes one attempt of the account in a single statement, counted as a wrong code until it proves
 * right: none while the account must wait (false). Note: counted before the check, so requests
 * sent at once cannot all pass the wait before any of them is counted.
 */
async function takeAttempt(db: Executor, userId: string): Promise<boolean> {
  const taken = await db
    .update(users)
    .set({
      totpFailures: sql`case when ${users.totpFailedAt} is null or ${forgotten} then 1 else ${users.totpFailures} + 1 end`,
      totpFailedAt: sql`now()`,
    })
    .where(
      and(
        eq(users.id, userId),
        sql`(${users.totpFailedAt} is null or ${forgotten} or ${codeWait} <= 0)`,
      ),
    )
    .returning({ id: users.id });
  return taken.length > 0;
}

/**
 * Recovery codes one account may try in an hour, right or wrong. Note: their own count, apart from
 * the authenticator's: someone guessing 6-digit codes (they have the password or a session) must
 * not lock the owner's recovery codes out, and each is ~49 bits, so 20 guesses an hour never find
 * one.
 */
export const RECOVERY_CODE_LIMIT = {
  bucket: 'recovery-code:account',
  max: 20,
  windowMs: 60 * 60 * 1000,
} as const;

const tooManyCodes = (wait: number) =>
  new AppError(
    'rate_limited',
    `${TOTP_MESSAGES.tooManyCodes}; try again in ${waitText(Math.max(wait, 1000))}`,
  );

/** Forgets the account's wrong authenticator codes (it just proved itself). */
const clearWrongCodes = (db: Executor, userId: string) =>
  db.update(users).set({ totpFailures: 0, totpFailedAt: null }).where(eq(users.id, userId));

/**
 * Checks a code of an account with TOTP on: its authenticator's current code (once), or one of
 * its recovery codes (used up). Each check is an attempt counted against a wait (429 while it
 * must wait): a 6-digit code against the account's wrong authenticator codes, anything else
 * against RECOVERY_CODE_LIMIT, so guessed 6-digit codes never hold a recovery code back. A right
 * code clears the authenticator's count; a code already used is refused and not counted (the
 * owner typing the code they just signed in with is not a guesser).
 */
export async function checkSecondFactor(
  db: Database,
  user: { id: string; totpSecret: string | null },
  code: string,
): Promise<CodeCheck> {
  if (!/^\d{6}$/.test(code)) {
    const wait = await new RateLimiter(db).hit(RECOVERY_CODE_LIMIT, user.id);
    if (wait > 0) throw tooManyCodes(wait);
    const right = user.totpSecret !== null && (await useRecoveryCode(db, user.id, code));
    if (right) await clearWrongCodes(db, user.id);
    return right ? 'ok' : 'wrong';
  }
  if (!(await takeAttempt(db, user.id))) throw tooManyCodes(await secondFactorWait(db, user.id));
  const check: CodeCheck = user.totpSecret
    ? await useTotpCode(db, user.id, user.totpSecret, code)
    : 'wrong';
  if (check === 'ok') await clearWrongCodes(db, user.id);
  else if (check === 'used')
    await db
      .update(users)
      .set({ totpFailures: sql`greatest(${users.totpFailures} - 1, 0)` })
      .where(eq(users.id, user.id));
  return check;
}

/** The account's second factor: whether it is on, and its secret. */
export async function secondFactorOf(db: Database, userId: string) {
  const [row] = await db
    .select({ id: users.id, totpSecret: users.totpSecret, totpEnabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/**
 * The gate of a change a stolen session must not make alone: once the account has two-step
 * verification on, the request carries a fresh code in the `X-TOTP-Code` header (a TOTP code or a
 * recovery code), else 403 with a message that says so; a wrong code is 403 too and counts against
 * the account (429 when it has guessed too often). Accounts without it pass.
 */
export async function requireSecondFactor(
  db: Database,
  user: SessionUser,
  request: Request,
): Promise<void> {
  const account = await secondFactorOf(db, user.id);
  if (!account?.totpEnabledAt) return;
  const code = request.headers.get(TOTP_CODE_HEADER)?.replace(/\s+/g, '').toLowerCase() ?? '';
  if (!code)
    throw new AppError('forbidden', TOTP_MESSAGES.secondFactorRequired, {
      secondFactor: 'required',
    });
  // Note: an over-long code is never checked, but still takes an attempt (and waits like any).
  const check = await checkSecondFactor(db, account, code.length > 20 ? '' : code);
  if (check !== 'ok')
    throw new AppError('forbidden', codeRefusal(check), { secondFactor: 'wrong' });
}

/**
 * The signed-in owner of a request that only a session may make, with a fresh code once two-step
 * verification is on: `requireSessionUser` (the session plugin's; 403 with `refusal` for an API
 * key), then `requireSecondFactor`.
 */
export async function requireSessionAndSecondFactor(
  db: Database,
  session: {
    request: Request;
    requireSessionUser: (refusal?: string) => Promise<SessionUser>;
  },
  refusal?: string,
): Promise<SessionUser> {
  const user = await session.requireSessionUser(refusal);
  await requireSecondFactor(db, user, session.request);
  return user;
}
