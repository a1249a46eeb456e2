// Request schemas and response shapes of the link signing routes.
import { TEXT_LIMITS } from '@store/shared';
import * as v from 'valibot';

const linkText = v.pipe(
  v.string('link must be a string'),
  v.trim(),
  v.nonEmpty('link is required'),
  v.maxLength(TEXT_LIMITS.linkQuery, `link must be at most ${TEXT_LIMITS.linkQuery} characters`),
);

/**
 * Body of POST /api/stores/{id}/signed-links: a universal-checkout link (a URL, `/universal-checkout?…`
 * or its bare query). Its `paymentAddress` may be left out: the store's payout address is used.
 */
export const SignLinkBody = v.object({ link: linkText });

/** Body of POST /api/universal-links/verify: the checkout link the shopper opened. */
export const VerifyLinkBody = v.object({ link: linkText });

/** A store's link secret as its owner sees it (it signs their universal-checkout links). */
export interface LinkSecretView {
  storeId: string;
  /** `lsk_` and 64 hex characters; the HMAC-SHA256 key is this whole text (UTF-8). */
  secret: string;
  /** The scheme links carry as `sigv`. */
  version: '1';
  createdAt: string;
  rotatedAt: string | null;
}

/** A signed link. */
export interface SignedLinkView {
  storeId: string;
  /** The link's query: the parameters sent, `storeId`, `sig` and `sigv`. */
  query: string;
  /** `/universal-checkout?{query}`. */
  path: string;
  /** The path on the origin this API was reached at. */
  url: string;
  signature: string;
}

/** Answer of POST /api/universal-links/verify (an altered link gets 422 instead). */
export type VerifiedLinkView =
  | { signed: false }
  | { signed: true; storeId: string; storeName: string };
