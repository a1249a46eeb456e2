// Signed universal-checkout links on the server: the signature checked with the store's link
// secret (which never leaves the API), the store's payout address as the only payee, and an order
// body held to the link's terms (items, prices, payee, webhook, shipping, branding).
import {
  type CheckoutParams,
  linkParamsOf,
  linkSignaturePartsOf,
  SIGNED_LINK_MESSAGES as M,
  normalizePriceString,
  parseCheckoutParams,
  verifyLinkSignature,
} from '@store/shared';
import { shippingOptionsOf } from '@store/shared/universal-order';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { storeLinkSecrets, stores } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { UniversalOrderInput } from './service.ts';

/** What a link is: hand-made (anyone could have written it) or signed by one of our stores. */
export type LinkCheck =
  | { signed: false }
  | { signed: true; storeId: string; storeName: string; params: CheckoutParams };

/** The 422 of an altered link; `details.reason` lets clients tell it from other refusals. */
export const linkAltered = () =>
  new AppError('validation_failed', M.altered, { reason: 'link_altered' });

/**
 * Checks a link's signature. Unsigned links pass as `{ signed: false }`; a link with signature
 * parameters passes only when the store's current link secret made exactly that signature over
 * exactly these parameters and the link pays the store's payout address.
 */
export async function checkSignedLink(db: Database, link: string): Promise<LinkCheck> {
  const parts = linkSignaturePartsOf(link);
  if (parts.kind === 'unsigned') return { signed: false };
  if (parts.kind === 'malformed') throw linkAltered();
  const [row] = await db
    .select({
      secret: storeLinkSecrets.secret,
      storeName: stores.name,
      payout: stores.paymentAddress,
      isActive: stores.isActive,
    })
    .from(storeLinkSecrets)
    .innerJoin(stores, eq(stores.id, storeLinkSecrets.storeId))
    .where(eq(storeLinkSecrets.storeId, parts.storeId))
    .limit(1);
  // Note: an unknown store, a store without a secret and a wrong signature all answer the same.
  if (!row || !(await verifyLinkSignature(parts, row.secret))) throw linkAltered();
  const parsed = parseCheckoutParams(linkParamsOf(link));
  if (!parsed.ok) throw new AppError('validation_failed', parsed.error);
  // The store's payout address may have changed since the link was signed: the link then no
  // longer pays the seller, and only a new link (signed with the new address) does.
  if (
    !row.isActive ||
    !row.payout ||
    row.payout.toLowerCase() !== parsed.value.paymentAddress.toLowerCase()
  )
    throw new AppError('validation_failed', M.payoutChanged, { reason: 'link_payout_changed' });
  return { signed: true, storeId: parts.storeId, storeName: row.storeName, params: parsed.value };
}

const money = (value: string | null | undefined) => (value ? normalizePriceString(value) : null);

/** The terms of an order, in one comparable form. */
function termsOf(terms: {
  storeName: string;
  payee: string;
  externalOrderId: string | null | undefined;
  webhookUrl: string | null | undefined;
  discountCode: string | null | undefined;
  items: readonly {
    title: string;
    priceUsdc: string;
    quantity: number;
    imageUrl?: string | null;
  }[];
  shipping: {
    shipping?: boolean;
    freeShipping?: boolean;
    standardShipping?: string;
    expressShipping?: string;
  };
  branding?: {
    returnUrl?: string | null;
    theme?: string | null;
    logoUrl?: string | null;
    colors?: {
      primary?: string | null;
      secondary?: string | null;
      accent?: string | null;
    } | null;
  } | null;
}): string {
  const b = terms.branding;
  return JSON.stringify({
    storeName: terms.storeName.trim(),
    payee: terms.payee.toLowerCase(),
    externalOrderId: terms.externalOrderId || null,
    webhookUrl: terms.webhookUrl || null,
    discountCode: terms.discountCode || null,
    items: terms.items.map((item) => [
      item.title.trim(),
      normalizePriceString(item.priceUsdc),
      item.quantity,
      item.imageUrl || null,
    ]),
    shipping: [
      terms.shipping.shipping === true,
      terms.shipping.freeShipping === true,
      money(terms.shipping.standardShipping),
      money(terms.shipping.expressShipping),
    ],
    branding: b
      ? [
          b.returnUrl || null,
          b.theme || null,
          b.logoUrl || null,
          b.colors?.primary || null,
          b.colors?.secondary || null,
          b.colors?.accent || null,
        ]
      : null,
  });
}

/**
 * Refuses (as altered) an order body whose terms are not the signed link's, and returns the body
 * with the link's shipping settings, so shipping is priced from them and never from the body.
 * The branding is compared when the body sends it (the payment page's form sends none).
 */
export function holdToLink<T extends UniversalOrderInput>(input: T, params: CheckoutParams): T {
  const shipping = shippingOptionsOf(params);
  const branding = 'metadata' in input ? input.metadata : undefined;
  const fromLink = termsOf({
    storeName: params.storeName,
    payee: params.paymentAddress,
    externalOrderId: params.externalOrderId,
    webhookUrl: params.webhookUrl,
    discountCode: params.discountCode,
    items: params.items,
    shipping,
    branding: branding
      ? {
          returnUrl: params.returnUrl,
          theme: params.theme,
          logoUrl: params.logoUrl,
          colors: {
            primary: params.primaryColor,
            secondary: params.secondaryColor,
            accent: params.accentColor,
          },
        }
      : null,
  });
  const fromBody = termsOf({
    storeName: input.storeName,
    payee: input.storePaymentAddress,
    externalOrderId: input.externalOrderId,
    webhookUrl: input.webhookUrl,
    discountCode: input.discountCode,
    items: input.items,
    shipping: input.shippingOptions ?? shipping,
    branding: branding ?? null,
  });
  if (fromLink !== fromBody) throw linkAltered();
  return { ...input, shippingOptions: shipping };
}
