// Universal checkout URL codec: parse the query of /universal-checkout and build the landing
// page demo link. The link builder's rules and builder are in link-builder.ts.
import * as v from 'valibot';
import { isEthereumAddress } from './address.ts';
import { DEFAULT_COLORS, DEMO_ITEM_PRICE_USDC } from './constants.ts';
import { CHECKOUT_URL_MESSAGES as URL_M } from './messages.ts';
import { generateDemoOrderId, type RandomSource } from './order-id.ts';
import { err, ok, type Result } from './result.ts';
import { type CheckoutParams, CheckoutParamsSchema } from './schemas/universal.ts';

/** Path of the universal checkout page. */
export const UNIVERSAL_CHECKOUT_PATH = '/universal-checkout';

/** One of the four universal checkout URL errors (docs/messages.md#checkout-link-errors). */
export type CheckoutUrlError = (typeof URL_M)[keyof typeof URL_M];

/** Customer pre-fill parameters, in link order. */
export const PREFILL_PARAMS = [
  'customerEmail',
  'phone',
  'firstName',
  'lastName',
  'street',
  'city',
  'state',
  'zipCode',
  'country',
] as const;

const TEXT_PARAMS = [
  'theme',
  'primaryColor',
  'secondaryColor',
  'accentColor',
  'logoUrl',
  ...PREFILL_PARAMS,
  'standardShipping',
  'expressShipping',
  'returnUrl',
  'externalOrderId',
  'webhookUrl',
  'discountCode',
] as const;

/** Decodes a boolean parameter: absent/''/'false'/'0' false, 'true'/'1' true, else undefined (invalid). */
function parseFlag(value: string | null): boolean | undefined {
  if (value === null || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  return undefined;
}

/**
 * Parses universal checkout query parameters; errors are the messages of
 * docs/messages.md#checkout-link-errors, in their order.
 */
export function parseCheckoutParams(
  search: URLSearchParams | string,
): Result<CheckoutParams, CheckoutUrlError> {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const storeName = params.get('storeName');
  const itemsText = params.get('items');
  const paymentAddress = params.get('paymentAddress');
  if (!storeName?.trim() || !itemsText?.trim() || !paymentAddress?.trim()) {
    return err(URL_M.missingParams);
  }
  let items: unknown;
  try {
    items = JSON.parse(itemsText);
  } catch {
    return err(URL_M.invalidItems);
  }
  if (!isEthereumAddress(paymentAddress)) return err(URL_M.invalidPaymentAddress);
  const shipping = parseFlag(params.get('shipping'));
  const freeShipping = parseFlag(params.get('freeShipping'));
  if (shipping === undefined || freeShipping === undefined) return err(URL_M.parseFailed);
  const raw: Record<string, unknown> = { storeName, items, paymentAddress, shipping, freeShipping };
  for (const name of TEXT_PARAMS) {
    const value = params.get(name);
    if (value) raw[name] = value;
  }
  const result = v.safeParse(CheckoutParamsSchema, raw);
  return result.success ? ok(result.output) : err(URL_M.parseFailed);
}

/** Options of the landing page demo link. */
export interface DemoLinkOptions {
  base?: string;
  /**
   * Who the demo pays: an address the platform controls (the web app uses the demo payout that
   * GET /api/health reports). Note: never a burn address; on Base a demo payment is real money.
   */
  paymentAddress: string;
  storeName?: string;
}

/** Landing page demo link: one 0.25 USDC item, theme dark, accent colour, externalOrderId demo-…. */
export function buildDemoCheckoutUrl(
  now: number,
  random: RandomSource,
  options: DemoLinkOptions,
): string {
  const params = new URLSearchParams();
  params.set('storeName', options.storeName ?? 'Demo Store');
  params.set(
    'items',
    JSON.stringify([{ title: 'Demo Product', priceUsdc: DEMO_ITEM_PRICE_USDC, quantity: 1 }]),
  );
  params.set('paymentAddress', options.paymentAddress);
  params.set('theme', 'dark');
  params.set('accentColor', DEFAULT_COLORS.accent);
  params.set('externalOrderId', generateDemoOrderId(now, random));
  return `${(options.base ?? '').replace(/\/+$/, '')}${UNIVERSAL_CHECKOUT_PATH}?${params}`;
}
