// Universal (external store) orders: totals recomputed from the items and the link's shipping
// settings, the link's branding checked on the server, stored pending: a signed link's order as
// an order of the store that signed it, an unsigned link's with no store.
import {
  type CreateUniversalOrder,
  type CreateUniversalWallet,
  type DiscountRule,
  defaultUniversalShippingMethod,
  discountAmount,
  discountRefusal,
  formatUsdc,
  isHexColor,
  isHttpUrl,
  normalizePriceString,
  type OrderMetadata,
  parsePrice,
  SIGNED_LINK_MESSAGES,
  STORE_FORM_MESSAGES,
  subtotalOf,
  type Usdc,
  universalShippingFor,
} from '@store/shared';
import { linkLines } from '@store/shared/universal-order';
import type { Database, Executor } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { checkWebhookUrlForm } from '../../webhooks/url-safety.ts';
import { usableDiscount } from '../discounts/service.ts';
import { UNIVERSAL_MESSAGES as M } from './model.ts';

/** Either body of POST /api/universal-orders. */
export type UniversalOrderInput = CreateUniversalOrder | CreateUniversalWallet;

const invalid = (message: string) => new AppError('validation_failed', message);

/** Shipping of the order: priced from the link's settings when sent, else the link's claim. */
function shippingOf(input: UniversalOrderInput): Usdc {
  const options = input.shippingOptions;
  if (!options) return parsePrice(input.shippingUsdc);
  if (!options.shipping) return 0n;
  const method = input.shippingMethod ?? defaultUniversalShippingMethod(options);
  if (method === 'free' && !options.freeShipping) throw invalid(M.freeShippingNotOffered);
  return universalShippingFor(method, options);
}

/**
 * Universal totals (no tax): subtotal − the discount of `rule` (a signed link's code, checked by
 * the caller) + shipping; 422 when the client's differ, the code cannot apply, or the total is 0.
 */
export function priceUniversalOrder(input: UniversalOrderInput, rule?: DiscountRule) {
  const subtotal = subtotalOf(input.items);
  const shipping = shippingOf(input);
  let off = 0n;
  if (rule) {
    const refusal = discountRefusal(linkLines(input.items), rule);
    if (refusal) throw invalid(refusal);
    off = discountAmount(linkLines(input.items), rule);
  }
  const total = subtotal - off + shipping;
  const totals = {
    subtotalUsdc: formatUsdc(subtotal),
    shippingUsdc: formatUsdc(shipping),
    totalUsdc: formatUsdc(total),
  };
  const sent = [input.subtotalUsdc, input.shippingUsdc, input.totalUsdc].map(normalizePriceString);
  const discountAgrees =
    input.discountUsdc === undefined ||
    normalizePriceString(input.discountUsdc) === formatUsdc(off);
  if (
    !discountAgrees ||
    sent.join() !== [totals.subtotalUsdc, totals.shippingUsdc, totals.totalUsdc].join()
  )
    throw invalid(M.totalsMismatch(totals.subtotalUsdc, totals.shippingUsdc, totals.totalUsdc));
  if (total <= 0n) throw invalid(M.zeroTotal);
  return { totals, discountUsdc: formatUsdc(off) };
}

/** Optional text that must pass `check`, else a 422 with `message`. */
function checked(value: string | null | undefined, check: (v: string) => boolean, message: string) {
  if (value === null || value === undefined || value === '') return null;
  if (!check(value)) throw invalid(message);
  return value;
}

const isLogo = (value: string) => isHttpUrl(value) || [...value].length <= 2;
const isColor = (value: string) => isHexColor(value);

/**
 * What the order keeps of the link beyond its columns: the store name and external order id it
 * carried, and its branding, checked like a link's.
 */
export function universalMetadata(input: UniversalOrderInput): OrderMetadata {
  const branding = 'metadata' in input ? input.metadata : undefined;
  const colors = branding?.colors;
  return {
    externalStoreName: input.storeName,
    storeName: input.storeName,
    externalOrderId: input.externalOrderId ?? null,
    // Note: the payment page navigates to returnUrl, so only http(s) (never javascript:).
    returnUrl: checked(branding?.returnUrl, isHttpUrl, M.returnUrl),
    theme: branding?.theme ?? null,
    colors: colors
      ? {
          primary: checked(colors.primary, isColor, STORE_FORM_MESSAGES.hexColor),
          secondary: checked(colors.secondary, isColor, STORE_FORM_MESSAGES.hexColor),
          accent: checked(colors.accent, isColor, STORE_FORM_MESSAGES.hexColor),
        }
      : null,
    logoUrl: checked(branding?.logoUrl, isLogo, M.logoUrl),
  };
}

/**
 * Stores a pending universal order and returns its id. Note: the integrator's webhook URL is an
 * outbound request chosen by a stranger: its form (https, no credentials) is checked here, where
 * it resolves is checked again when each webhook is sent.
 */
export async function createUniversalOrder(
  db: Database,
  input: UniversalOrderInput,
  options: { allowPrivateWebhooks: boolean; signedBy?: string },
): Promise<{ id: string }> {
  const webhookError = input.webhookUrl
    ? checkWebhookUrlForm(input.webhookUrl, options.allowPrivateWebhooks)
    : null;
  if (webhookError) throw invalid(webhookError);
  const code = input.discountCode;
  // Note: codes are a store's: a hand-made link names no store to hold one to.
  if (code && !options.signedBy) throw invalid(SIGNED_LINK_MESSAGES.discountUnsigned);
  const metadata = universalMetadata(input);
  const items = input.items.map((item) => ({
    ...item,
    priceUsdc: normalizePriceString(item.priceUsdc),
  }));
  if (!code || !options.signedBy) return insertUniversalOrder(db, input, options, items, metadata);
  const storeId = options.signedBy;
  // The code's row stays locked from its uses' count to the order's commit (the last use goes to
  // one order), as for a storefront order.
  return db.transaction(async (tx) => {
    const discount = await usableDiscount(tx, storeId, code, input.customerEmail, true);
    return insertUniversalOrder(tx, input, options, items, metadata, discount);
  });
}

/** Writes the order, priced with the signed link's code when it has one. */
async function insertUniversalOrder(
  db: Executor,
  input: UniversalOrderInput,
  options: { signedBy?: string },
  items: UniversalOrderInput['items'],
  metadata: OrderMetadata,
  discount?: { id: string; rule: DiscountRule },
): Promise<{ id: string; reviewToken: string }> {
  const { totals, discountUsdc } = priceUniversalOrder(input, discount?.rule);
  const [order] = await db
    .insert(orders)
    .values({
      // Note: nothing proves a hand-made link's price or payee were the integrator's: its order
      // belongs to no store (and its webhook says `signed: false`). A signed link's terms were
      // checked against its store's signature (signed-link.ts), payee included.
      storeId: options.signedBy ?? null,
      source: options.signedBy ? 'signed_link' : 'unsigned_link',
      payeeAddress: input.storePaymentAddress,
      webhookUrl: input.webhookUrl ?? null,
      customerEmail: input.customerEmail,
      shippingAddress: input.shippingAddress,
      items,
      ...totals,
      ...(discount
        ? { discountCode: discount.rule.code, discountUsdc, discountCodeId: discount.id }
        : {}),
      status: 'pending',
      metadata,
    })
    .returning({ id: orders.id, reviewToken: orders.reviewToken });
  if (!order) throw new Error('insert returned no order');
  return order;
}
