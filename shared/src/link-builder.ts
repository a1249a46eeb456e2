// Payment link builder rules (docs/rules.md#link-builder): required fields in order, then the
// checks of what it builds (address and checksum, webhook URL, prices, quantities, branding, all
// with the shared schemas), and the universal-checkout link it generates. The parser is in
// checkout-url.ts.
import * as v from 'valibot';
import { isEthereumAddress, isHexColor, isHttpUrl, isZeroAddress } from './address.ts';
import { hasValidChecksum } from './address-checksum.ts';
import { PREFILL_PARAMS, parseCheckoutParams, UNIVERSAL_CHECKOUT_PATH } from './checkout-url.ts';
import { LIMIT_MESSAGES, TEXT_LIMITS } from './limits.ts';
import {
  LINK_BUILDER_MESSAGES as BUILDER_M,
  LINK_BUILDER_CHECK_MESSAGES as CHECK_M,
  CUSTOMER_FORM_MESSAGES,
  PAYOUT_ADDRESS_MESSAGES,
  PRODUCT_FORM_MESSAGES,
  STORE_FORM_MESSAGES,
} from './messages.ts';
import { parseUsdc } from './money.ts';
import { quantityOrDefault } from './quantity.ts';
import { err, ok, type Result } from './result.ts';
import { MoneyStringSchema, type Theme } from './schemas/common.ts';
import { EmailSchema, LineQuantitySchema } from './schemas/order.ts';

/** A row of the link builder's products section (text inputs). */
export interface LinkBuilderItem {
  title: string;
  priceUsdc: string;
  quantity: string | number;
  imageUrl?: string;
}

/** Everything the payment link builder form holds. */
export interface LinkBuilderState {
  storeName: string;
  paymentAddress: string;
  externalOrderId: string;
  webhookUrl: string;
  items: readonly LinkBuilderItem[];
  theme: Theme;
  primaryColor?: string;
  secondaryColor?: string;
  accentColor?: string;
  logoUrl?: string;
  returnUrl?: string;
  shippingEnabled: boolean;
  freeShipping: boolean;
  standardShipping?: string;
  expressShipping?: string;
  prefill?: Partial<Record<(typeof PREFILL_PARAMS)[number], string>>;
}

/** One of the link builder's validation messages (the required fields' first, then its own). */
export type LinkBuilderError = string;

/** The field an issue belongs to: a state key, an item's field (`items.{row}.{field}`) or the link. */
export type LinkBuilderField =
  | 'storeName'
  | 'paymentAddress'
  | 'externalOrderId'
  | 'webhookUrl'
  | 'items'
  | `items.${number}.${'title' | 'priceUsdc' | 'quantity' | 'imageUrl'}`
  | 'primaryColor'
  | 'secondaryColor'
  | 'accentColor'
  | 'logoUrl'
  | 'returnUrl'
  | 'standardShipping'
  | 'expressShipping'
  | `prefill.${(typeof PREFILL_PARAMS)[number]}`
  | 'link';

/** One problem of the builder's state, shown beside its field. */
export interface LinkBuilderIssue {
  field: LinkBuilderField;
  message: string;
}

/** Items with a title and a price, trimmed, quantity falling back to 1. */
export function completeItems(
  items: readonly LinkBuilderItem[],
): { title: string; priceUsdc: string; quantity: number; imageUrl?: string }[] {
  return items
    .filter((item) => item.title.trim() !== '' && item.priceUsdc.trim() !== '')
    .map((item) => ({
      title: item.title.trim(),
      priceUsdc: item.priceUsdc.trim(),
      quantity: quantityOrDefault(item.quantity),
      ...(item.imageUrl?.trim() ? { imageUrl: item.imageUrl.trim() } : {}),
    }));
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The webhook URL's problem: not a URL, or http to anything but this machine. */
function webhookUrlIssue(value: string): string | undefined {
  if (!isHttpUrl(value)) return CHECK_M.webhookUrlFormat;
  const url = new URL(value);
  if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) return CHECK_M.webhookUrlHttps;
  return value.length > TEXT_LIMITS.url
    ? LIMIT_MESSAGES.tooLong('Webhook URL', TEXT_LIMITS.url)
    : undefined;
}

/** The payment address's problem: format (the store form's text), checksum, zero address. */
function addressIssue(value: string): string | undefined {
  if (!isEthereumAddress(value)) return STORE_FORM_MESSAGES.paymentAddress;
  if (!hasValidChecksum(value)) return CHECK_M.addressChecksum;
  return isZeroAddress(value) ? PAYOUT_ADDRESS_MESSAGES.zero : undefined;
}

/** A price above 0 with at most 2 decimals (the shared money schema). */
function isPositivePrice(value: string): boolean {
  return v.is(MoneyStringSchema, value) && parseUsdc(value) > 0n;
}

const isLogo = (value: string) => isHttpUrl(value) || [...value].length <= 2;

/** The checks after the required fields, each on a filled-in field. */
function formatIssues(state: LinkBuilderState): LinkBuilderIssue[] {
  const issues: LinkBuilderIssue[] = [];
  const add = (field: LinkBuilderField, message: string | undefined) => {
    if (message) issues.push({ field, message });
  };
  const filled = (value: string | undefined) => value?.trim() ?? '';
  const storeName = filled(state.storeName);
  if (storeName.length > TEXT_LIMITS.name)
    add('storeName', LIMIT_MESSAGES.tooLong('Store name', TEXT_LIMITS.name));
  const address = filled(state.paymentAddress);
  if (address) add('paymentAddress', addressIssue(address));
  if (filled(state.externalOrderId).length > TEXT_LIMITS.externalOrderId)
    add(
      'externalOrderId',
      LIMIT_MESSAGES.tooLong('External order ID', TEXT_LIMITS.externalOrderId),
    );
  const webhook = filled(state.webhookUrl);
  if (webhook) add('webhookUrl', webhookUrlIssue(webhook));
  state.items.forEach((item, row) => {
    const title = item.title.trim();
    const price = item.priceUsdc.trim();
    // Note: incomplete rows stay out of the link, so only complete rows are checked.
    if (!title || !price) return;
    if (title.length > TEXT_LIMITS.name)
      add(`items.${row}.title`, LIMIT_MESSAGES.tooLong('Item title', TEXT_LIMITS.name));
    if (!isPositivePrice(price)) add(`items.${row}.priceUsdc`, PRODUCT_FORM_MESSAGES.pricePositive);
    // Note: an empty quantity falls back to 1; anything typed must be a whole number ≥ 1.
    const quantity = String(item.quantity).trim();
    if (quantity && !v.is(LineQuantitySchema, Number(quantity)))
      add(`items.${row}.quantity`, CHECK_M.quantity);
    const image = filled(item.imageUrl);
    if (image && !isHttpUrl(image)) add(`items.${row}.imageUrl`, CHECK_M.imageUrl);
  });
  for (const field of ['primaryColor', 'secondaryColor', 'accentColor'] as const) {
    const colour = filled(state[field]);
    if (colour && !isHexColor(colour)) add(field, STORE_FORM_MESSAGES.hexColor);
  }
  const logo = filled(state.logoUrl);
  if (logo && !isLogo(logo)) add('logoUrl', CHECK_M.logoUrl);
  const returnUrl = filled(state.returnUrl);
  if (returnUrl && !isHttpUrl(returnUrl)) add('returnUrl', CHECK_M.returnUrl);
  if (state.shippingEnabled)
    for (const field of ['standardShipping', 'expressShipping'] as const) {
      const amount = filled(state[field]);
      if (amount && !v.is(MoneyStringSchema, amount)) add(field, CHECK_M.shippingPrice);
    }
  const email = filled(state.prefill?.customerEmail);
  if (email && !v.is(EmailSchema, email))
    add('prefill.customerEmail', CUSTOMER_FORM_MESSAGES.email);
  return issues;
}

/**
 * Every problem of the builder's state: the required fields in order (docs/rules.md#link-builder),
 * then the checks of what the link would carry; last, anything the checkout page itself would
 * refuse.
 */
export function linkBuilderIssues(state: LinkBuilderState): LinkBuilderIssue[] {
  const issues: LinkBuilderIssue[] = [];
  if (!state.storeName.trim())
    issues.push({ field: 'storeName', message: BUILDER_M.storeNameRequired });
  if (!state.paymentAddress.trim())
    issues.push({ field: 'paymentAddress', message: BUILDER_M.paymentAddressRequired });
  if (!state.externalOrderId.trim())
    issues.push({ field: 'externalOrderId', message: BUILDER_M.externalOrderIdRequired });
  if (!state.webhookUrl.trim())
    issues.push({ field: 'webhookUrl', message: BUILDER_M.webhookUrlRequired });
  if (completeItems(state.items).length === 0)
    issues.push({ field: 'items', message: BUILDER_M.itemRequired });
  issues.push(...formatIssues(state));
  if (issues.length === 0) {
    const parsed = parseCheckoutParams(checkoutSearchParams(state));
    if (!parsed.ok) issues.push({ field: 'link', message: parsed.error });
  }
  return issues;
}

/** The builder's first problem (the required fields first), or ok. */
export function validateLinkBuilder(state: LinkBuilderState): Result<true, LinkBuilderError> {
  const [first] = linkBuilderIssues(state);
  return first ? err(first.message) : ok(true);
}

/** Query parameters of a builder state (no validation; empty optional fields are left out). */
export function checkoutSearchParams(state: LinkBuilderState): URLSearchParams {
  const params = new URLSearchParams();
  const put = (name: string, value: string | undefined) => {
    if (value?.trim()) params.set(name, value.trim());
  };
  put('storeName', state.storeName);
  params.set('items', JSON.stringify(completeItems(state.items)));
  put('paymentAddress', state.paymentAddress);
  put('externalOrderId', state.externalOrderId);
  put('webhookUrl', state.webhookUrl);
  put('theme', state.theme);
  put('primaryColor', state.primaryColor);
  put('secondaryColor', state.secondaryColor);
  put('accentColor', state.accentColor);
  put('logoUrl', state.logoUrl);
  put('returnUrl', state.returnUrl);
  if (state.shippingEnabled) {
    params.set('shipping', 'true');
    if (state.freeShipping) params.set('freeShipping', 'true');
    put('standardShipping', state.standardShipping);
    put('expressShipping', state.expressShipping);
  }
  for (const name of PREFILL_PARAMS) put(name, state.prefill?.[name]);
  return params;
}

/** Builds `{base}/universal-checkout?…` from a builder state; throws Error(message) when validation fails. */
export function buildCheckoutUrl(base: string, state: LinkBuilderState): string {
  const check = validateLinkBuilder(state);
  if (!check.ok) throw new Error(check.error);
  return `${base.replace(/\/+$/, '')}${UNIVERSAL_CHECKOUT_PATH}?${checkoutSearchParams(state)}`;
}
