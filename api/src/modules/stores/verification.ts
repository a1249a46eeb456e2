// "Verified Store": the merchant proves control of the payout address by signing an EIP-4361
// (Sign-In with Ethereum) message the API issued, with a single-use nonce, for the public origin,
// naming the store. The badge holds while the address that signed is still the payout address.
import { createHash } from 'node:crypto';
import {
  PAYOUT_VERIFICATION_MESSAGES as M,
  type PayoutChallenge,
  type VerifyPayout,
} from '@store/shared';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { getAddress, type Hex, verifyMessage } from 'viem';
import { createSiweMessage, generateSiweNonce, parseSiweMessage } from 'viem/siwe';
import type { Database } from '../../db/client.ts';
import { accountTokens, stores } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { Caller } from '../team/access.ts';
import type { OwnerStore } from './model.ts';
import { getOwnStoreOrThrow } from './service.ts';

/** How long an issued message may be signed. */
export const CHALLENGE_TTL_MS = 10 * 60 * 1000;
/**
 * Purpose of the nonce rows. Note: the single-use tokens table holds them (the nonce's SHA-256,
 * the merchant, and in `email` the address the token proves: here the payout address).
 */
const PURPOSE = 'verify_payout';

const hashOf = (nonce: string) => createHash('sha256').update(nonce).digest('hex');
const storeUrl = (origin: string, slug: string) => `${origin}/store/${slug}`;

/** Where the message is issued from and for which chain. */
export interface SiweContext {
  /** The web app's public origin (https://pay.example.com). */
  origin: string;
  chainId: number;
}

async function payoutStoreOrThrow(db: Database, caller: Caller, storeId: string) {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'payout');
  if (!store.paymentAddress) throw new AppError('invalid_state', M.noPayoutAddress);
  return store as OwnerStore & { paymentAddress: string };
}

/** Issues the message the payout wallet signs (its nonce is stored, hashed, for 10 minutes). */
export async function issuePayoutChallenge(
  db: Database,
  caller: Caller,
  storeId: string,
  context: SiweContext,
  now = new Date(),
): Promise<PayoutChallenge> {
  const store = await payoutStoreOrThrow(db, caller, storeId);
  const nonce = generateSiweNonce();
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  const address = getAddress(store.paymentAddress);
  const message = createSiweMessage({
    domain: new URL(context.origin).host,
    address,
    statement: `I control this wallet, the payout address of the store "${store.name}" (${store.slug}).`,
    uri: context.origin,
    version: '1',
    chainId: context.chainId,
    nonce,
    issuedAt: now,
    expirationTime: expiresAt,
    resources: [storeUrl(context.origin, store.slug)],
  });
  await db.insert(accountTokens).values({
    tokenHash: hashOf(nonce),
    userId: caller.id,
    purpose: PURPOSE,
    email: address.toLowerCase(),
    expiresAt,
  });
  return { message, address, expiresAt: expiresAt.toISOString() };
}

/** Whether the message is the one issued for this store, address, origin and chain, unexpired. */
function isIssuedFor(
  message: string,
  store: { slug: string; paymentAddress: string },
  context: SiweContext,
  now: Date,
) {
  let parsed: ReturnType<typeof parseSiweMessage>;
  try {
    parsed = parseSiweMessage(message);
  } catch {
    return undefined;
  }
  const fits =
    parsed.domain === new URL(context.origin).host &&
    parsed.uri === context.origin &&
    parsed.chainId === context.chainId &&
    parsed.address?.toLowerCase() === store.paymentAddress.toLowerCase() &&
    (parsed.resources ?? []).includes(storeUrl(context.origin, store.slug)) &&
    parsed.expirationTime !== undefined &&
    parsed.expirationTime.getTime() > now.getTime() &&
    typeof parsed.nonce === 'string';
  return fits ? parsed.nonce : undefined;
}

/**
 * Checks the signed message (issued for this store's payout address, signed by it, nonce unused)
 * and records the verification; 422 for a wrong message or signer, 409 for a used or expired one.
 */
export async function verifyPayoutAddress(
  db: Database,
  caller: Caller,
  storeId: string,
  body: VerifyPayout,
  context: SiweContext,
  now = new Date(),
): Promise<OwnerStore> {
  const store = await payoutStoreOrThrow(db, caller, storeId);
  const nonce = isIssuedFor(body.message, store, context, now);
  if (!nonce) throw new AppError('validation_failed', M.badMessage);
  const signed = await verifyMessage({
    address: getAddress(store.paymentAddress),
    message: body.message,
    signature: body.signature as Hex,
  }).catch(() => false);
  if (!signed) throw new AppError('validation_failed', M.badSignature);
  // Note: the nonce is spent only by a good signature, and only once (the update is the claim).
  const spent = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.tokenHash, hashOf(nonce)),
        eq(accountTokens.purpose, PURPOSE),
        eq(accountTokens.userId, caller.id),
        eq(accountTokens.email, store.paymentAddress.toLowerCase()),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning({ tokenHash: accountTokens.tokenHash });
  if (spent.length === 0) throw new AppError('invalid_state', M.expired);
  // Note: only while the payout address is still the one that signed (an edit may have raced).
  const recorded = await db
    .update(stores)
    .set({
      verifiedAddress: store.paymentAddress,
      verifiedAt: now,
      verificationMessage: body.message,
      verificationSignature: body.signature,
    })
    .where(
      and(
        eq(stores.id, store.id),
        sql`lower(${stores.paymentAddress}) = ${store.paymentAddress.toLowerCase()}`,
      ),
    )
    .returning({ id: stores.id });
  if (recorded.length === 0) throw new AppError('invalid_state', M.expired);
  return getOwnStoreOrThrow(db, caller, storeId, 'payout');
}
