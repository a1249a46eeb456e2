// Link secrets and signed universal-checkout links: one secret per store (32 random bytes, made on
// first read, rotated on demand, read by the API alone), and links signed with it that pay only
// the store's payout address. Owners only; others get 404 as for a store.
import {
  discountRefusal,
  hasRepeatedName,
  LINK_SIGNATURE_PARAM,
  LINK_SIGNATURE_PARAMS,
  LINK_STORE_PARAM,
  linkParamsOf,
  SIGNED_LINK_MESSAGES as M,
  parseCheckoutParams,
  signLinkParams,
  UNIVERSAL_CHECKOUT_PATH,
} from '@store/shared';
import { linkLines } from '@store/shared/universal-order';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { storeLinkSecrets, stores } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { newWebhookSecret } from '../../webhooks/signing.ts';
import { checkWebhookUrlForm } from '../../webhooks/url-safety.ts';
import { usableDiscount } from '../discounts/service.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import type { Caller } from '../team/access.ts';
import type { LinkSecretView, SignedLinkView } from './model.ts';

/** Refusal of a link to sign that gives some parameter twice (its checkout would be ambiguous). */
export const REPEATED_PARAMETER = 'A parameter appears more than once in this link';

/** A new link secret: `lsk_` and 32 random bytes in hex. */
export function newLinkSecret(): string {
  return `lsk_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')}`;
}

type SecretRow = typeof storeLinkSecrets.$inferSelect;

const viewOf = (row: SecretRow): LinkSecretView => ({
  storeId: row.storeId,
  secret: row.secret,
  version: '1',
  createdAt: row.createdAt.toISOString(),
  rotatedAt: row.rotatedAt?.toISOString() ?? null,
});

/**
 * The store's link secret, made on first use. Note: a signed link's webhooks are signed with the
 * store's webhook secret (v1), so the store gets one here if it has none yet.
 */
async function ensureLinkSecret(db: Database, storeId: string): Promise<SecretRow> {
  await db
    .update(stores)
    .set({ webhookSecret: sql`coalesce(${stores.webhookSecret}, ${newWebhookSecret()})` })
    .where(eq(stores.id, storeId));
  await db
    .insert(storeLinkSecrets)
    .values({ storeId, secret: newLinkSecret() })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(storeLinkSecrets)
    .where(eq(storeLinkSecrets.storeId, storeId));
  if (!row) throw new Error('link secret insert returned nothing');
  return row;
}

/** The store's link secret; 404 unless the merchant owns the store. */
export async function getLinkSecret(
  db: Database,
  caller: Caller,
  storeId: string,
): Promise<LinkSecretView> {
  await getOwnStoreOrThrow(db, caller, storeId, 'manage');
  return viewOf(await ensureLinkSecret(db, storeId));
}

/** A new link secret: every link signed with the old one is refused from now on. */
export async function rotateLinkSecret(
  db: Database,
  caller: Caller,
  storeId: string,
): Promise<LinkSecretView> {
  await getOwnStoreOrThrow(db, caller, storeId, 'manage');
  await ensureLinkSecret(db, storeId);
  const [row] = await db
    .update(storeLinkSecrets)
    .set({ secret: newLinkSecret(), rotatedAt: new Date() })
    .where(eq(storeLinkSecrets.storeId, storeId))
    .returning();
  if (!row) throw new Error('link secret update returned nothing');
  return viewOf(row);
}

const invalid = (message: string) => new AppError('validation_failed', message);

/**
 * Signs a universal-checkout link for the store: its own parameters (any old signature dropped),
 * paying the store's payout address (filled in when left out, refused when another), valid as
 * the checkout page reads it, with an acceptable webhook URL.
 */
export async function signLink(
  db: Database,
  options: {
    caller: Caller;
    storeId: string;
    link: string;
    origin: string;
    allowPrivate: boolean;
  },
): Promise<SignedLinkView> {
  const store = await getOwnStoreOrThrow(db, options.caller, options.storeId, 'manage');
  if (!store.paymentAddress) throw invalid(M.noPayout);
  const params = linkParamsOf(options.link);
  for (const name of [...LINK_SIGNATURE_PARAMS, LINK_STORE_PARAM]) params.delete(name);
  if (hasRepeatedName(params)) throw invalid(REPEATED_PARAMETER);
  const payee = params.get('paymentAddress')?.trim();
  if (!payee) params.set('paymentAddress', store.paymentAddress);
  else if (payee.toLowerCase() !== store.paymentAddress.toLowerCase())
    throw invalid(M.payoutMismatch);
  const parsed = parseCheckoutParams(params);
  if (!parsed.ok) throw invalid(parsed.error);
  const webhookError = parsed.value.webhookUrl
    ? checkWebhookUrlForm(parsed.value.webhookUrl, options.allowPrivate)
    : null;
  if (webhookError) throw invalid(webhookError);
  const code = parsed.value.discountCode;
  if (code) {
    // The code is checked now (the merchant hears why it cannot apply) and again, under its lock,
    // when a shopper's order is made from the link; the link carries it as stored (upper-case).
    const { rule } = await usableDiscount(db, store.id, code, parsed.value.customerEmail);
    const refusal = discountRefusal(linkLines(parsed.value.items), rule);
    if (refusal) throw invalid(refusal);
    params.set('discountCode', rule.code);
  }
  const { secret } = await ensureLinkSecret(db, options.storeId);
  const signed = await signLinkParams(params, options.storeId, secret);
  const query = signed.toString();
  const path = `${UNIVERSAL_CHECKOUT_PATH}?${query}`;
  return {
    storeId: options.storeId,
    query,
    path,
    url: `${options.origin}${path}`,
    signature: signed.get(LINK_SIGNATURE_PARAM) ?? '',
  };
}
