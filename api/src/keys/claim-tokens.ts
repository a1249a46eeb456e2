// Refund claim tokens, by which the payer confirms where a refund goes (the claim mail is queued by mail/outbox.ts). Two kinds:
// - the emailed link /refund/{token}: a random token (only its SHA-256 is stored,
//   `refunds.claim_token_hash`; the outbox holds the token until the mail is sent); it may send the
//   refund to any address the payer enters (an exchange account, a new wallet);
// - the order pages' link /refund/{refundId}.{hmac}: an HMAC of the refund's id keyed with the
//   order's buyer token (`orders.review_token`), which only the shopper's browser and mails hold:
//   the merchant, its webhook receiver and anyone else who knows the order's id cannot make it.
//   It can only confirm the address that paid (payments/refund-payer.ts); it never redirects money.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** An emailed claim token: 43 base64url characters (256 random bits). */
export const CLAIM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** An order page's claim token: the refund's id, a dot, its HMAC. */
export const PAGE_CLAIM_TOKEN_PATTERN =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/;

/** A new emailed claim token. */
export function newClaimToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The HMAC part of a refund's page claim token, keyed with its order's buyer token. */
function pageClaimMac(buyerToken: string, refundId: string): string {
  return createHmac('sha256', buyerToken).update(`refund-claim:${refundId}`).digest('base64url');
}

/** The order pages' claim token of a refund. */
export function claimTokenOf(buyerToken: string, refundId: string): string {
  return `${refundId}.${pageClaimMac(buyerToken, refundId)}`;
}

/** True when `mac` is the page claim token's HMAC for this refund of the order with this buyer token. */
export function isPageClaimMac(buyerToken: string, refundId: string, mac: string): boolean {
  const expected = Buffer.from(pageClaimMac(buyerToken, refundId));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** What is stored of a token: its SHA-256, hex. */
export function claimTokenHash(token: string): string {
  return new Bun.CryptoHasher('sha256').update(token).digest('hex');
}

/** The web app's path of a refund's claim page, as the shopper's order pages link it. */
export function claimPathOf(buyerToken: string, refundId: string): string {
  return `/refund/${claimTokenOf(buyerToken, refundId)}`;
}
