// Payment link builder rules (SPEC §5): validation in SPEC order and the universal-checkout
// link it generates. The parser of those links is in checkout-url.ts.
import { PREFILL_PARAMS, UNIVERSAL_CHECKOUT_PATH } from './checkout-url.ts';
import { LINK_BUILDER_MESSAGES as BUILDER_M } from './messages.ts';
import { quantityOrDefault } from './quantity.ts';
import { err, ok, type Result } from './result.ts';
import type { Theme } from './schemas/common.ts';

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

/** One of the link builder's validation messages. */
export type LinkBuilderError = (typeof BUILDER_M)[
  | 'storeNameRequired'
  | 'paymentAddressRequired'
  | 'externalOrderIdRequired'
  | 'webhookUrlRequired'
  | 'itemRequired'];

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

/** Checks the builder in SPEC order; the payment address format is deliberately not checked. */
export function validateLinkBuilder(state: LinkBuilderState): Result<true, LinkBuilderError> {
  if (!state.storeName.trim()) return err(BUILDER_M.storeNameRequired);
  if (!state.paymentAddress.trim()) return err(BUILDER_M.paymentAddressRequired);
  if (!state.externalOrderId.trim()) return err(BUILDER_M.externalOrderIdRequired);
  if (!state.webhookUrl.trim()) return err(BUILDER_M.webhookUrlRequired);
  if (completeItems(state.items).length === 0) return err(BUILDER_M.itemRequired);
  return ok(true);
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
