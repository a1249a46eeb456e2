// The TOTP second factor (RFC 6238 through `otpauth`): a secret set up, then enabled once a code
// proves the authenticator app has it; ten single-use recovery codes (only their SHA-256 stored);
// `requireSecondFactor`, the gate of the changes a stolen session must not make alone (payout
// address, API keys) once an account has it on.
import { TOTP_CODE_HEADER, TOTP_MESSAGES } from '@store/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Database } from '../../db/client.ts';
import { recoveryCodes, users } from '../../db/schema.ts';
import { BackoffLimiter, waitText } from '../../http/attempt-limiter.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken, type SessionUser } from '../../http/session.ts';
import type { Executor } from '../../webhooks/outbox.ts';

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
/** Accounts whose last used step this process remembers (the oldest are forgotten first). */
const MAX_REMEMBERED_STEPS = 50_000;
// Note: the step of the last code each account used, so that a code works once: one seen over a
// shoulder or in a log cannot be sent again. Kept in this process (the schema has no column for it).
const usedSteps = new Map<string, number>();

/**
 * Whether `code` is the secret's code now (or one step either side) and newer than the last code
 * the account used; a valid one is remembered as used.
 */
function useTotpCode(userId: string, secret: string, code: string): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const now = Date.now();
  const delta = totpOf(secret, 'check').validate({
    token: code,
    window: TOTP_WINDOW,
    timestamp: now,
  });
  if (delta === null) return false;
  const step = Math.floor(now / TOTP_PERIOD_MS) + delta;
  if (step <= (usedSteps.get(userId) ?? Number.NEGATIVE_INFINITY)) return false;
  usedSteps.delete(userId);
  usedSteps.set(userId, step);
  if (usedSteps.size > MAX_REMEMBERED_STEPS) {
    const oldest = usedSteps.keys().next().value;
    if (oldest !== undefined) usedSteps.delete(oldest);
  }
  return true;
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

// Note: a 6-digit code is guessable in a million tries; wrong codes of one account slow it down
// (5 free, then 1 s, 2 s… up to 15 minutes; forgotten after an hour), in this process.
const wrongCodes = new BackoffLimiter({
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60 * 1000,
  forgetAfterMs: 60 * 60 * 1000,
  freeFailures: 5,
  maxKeys: 20_000,
});

/** Milliseconds the account must wait before its next code is checked (0: now). */
export const secondFactorWait = (userId: string) => wrongCodes.waitMs(userId);

/**
 * Checks a code of an account with TOTP on: its authenticator's current code (once), or one of
 * its recovery codes (used up). A wrong one counts against the account's wait.
 */
export async function secondFactorValid(
  db: Executor,
  user: { id: string; totpSecret: string | null },
  code: string,
): Promise<boolean> {
  const valid = user.totpSecret
    ? useTotpCode(user.id, user.totpSecret, code) || (await useRecoveryCode(db, user.id, code))
    : false;
  if (valid) wrongCodes.reset(user.id);
  else wrongCodes.fail(user.id);
  return valid;
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
  const wait = secondFactorWait(user.id);
  if (wait > 0)
    throw new AppError(
      'rate_limited',
      `${TOTP_MESSAGES.tooManyCodes}; try again in ${waitText(wait)}`,
    );
  if (code.length > 20 || !(await secondFactorValid(db, account, code)))
    throw new AppError('forbidden', TOTP_MESSAGES.codeWrong, { secondFactor: 'wrong' });
}
