// Order totals (docs/rules.md#totals): subtotal, shipping by method, the store's estimated tax (8%
// unless set) on the store checkout. Amounts are bigint base units inside; the *Usdc fields are the
// 2-decimal wire strings. Throws InvalidAmountError on a non-numeric price or quantity (the UI
// shows 'Calculation Error').
import { BPS_DENOMINATOR, ESTIMATED_TAX_BPS, SHIPPING_OPTIONS, USDC_CENT } from './constants.ts';
import {
  divideRoundHalfUp,
  formatUsdc,
  multiplyUsdc,
  parseUsdc,
  percentOf,
  sumUsdc,
  tryParseUsdc,
  type Usdc,
} from './money.ts';
import type { ShippingMethod } from './schemas/common.ts';

/** What every way of ordering answers an order whose total is 0.00 (there is nothing to pay). */
export const ZERO_TOTAL_MESSAGE = 'An order of 0.00 USDC needs no payment';

/** The fields of a line that totals need. */
export interface PricedLine {
  priceUsdc: string;
  quantity: number;
}

/** Σ price × quantity of the lines. */
export function subtotalOf(lines: readonly PricedLine[]): Usdc {
  return sumUsdc(lines.map((line) => multiplyUsdc(parseUsdc(line.priceUsdc), line.quantity)));
}

/** Store checkout shipping: free 0, standard 12.99, express 24.99. */
export function shippingFor(method: ShippingMethod): Usdc {
  return SHIPPING_OPTIONS[method].baseUnits;
}

/** Store checkout default method (docs/rules.md#shipping-methods): free. */
export function defaultStoreShippingMethod(): ShippingMethod {
  return 'free';
}

/**
 * Cart shipping fee (docs/rules.md#cart-rules): standard 12.99 until a method is chosen, then that
 * method's price.
 */
export function cartShippingFee(chosen?: ShippingMethod): Usdc {
  return shippingFor(chosen ?? 'standard');
}

/**
 * Estimated tax of the subtotal at `taxRateBps` (8% unless the store set one), rounded half up to
 * the cent.
 */
export function estimatedTax(
  subtotal: Usdc,
  taxRateBps: number | bigint = ESTIMATED_TAX_BPS,
): Usdc {
  return percentOf(subtotal, BigInt(taxRateBps));
}

/**
 * The tax inside a tax-inclusive amount at `taxRateBps`: gross × rate / (1 + rate), rounded half
 * up to the cent like the added tax (19% of 119.00 is 19.00; of 10.00 it is 1.60).
 */
export function includedTax(gross: Usdc, taxRateBps: number | bigint): Usdc {
  const bps = BigInt(taxRateBps);
  return divideRoundHalfUp(gross * bps, (BPS_DENOMINATOR + bps) * USDC_CENT) * USDC_CENT;
}

/** Totals of the store checkout, as bigint and as 2-decimal strings. */
export interface StoreCheckoutTotals {
  /** Whether the tax is inside the prices (shown, not added to the total). */
  taxIncluded: boolean;
  subtotal: Usdc;
  /** What a discount code took off the subtotal (0 without one). */
  discount: Usdc;
  shipping: Usdc;
  tax: Usdc;
  total: Usdc;
  subtotalUsdc: string;
  discountUsdc: string;
  shippingUsdc: string;
  taxUsdc: string;
  totalUsdc: string;
}

/**
 * Store checkout: total = subtotal − discount + shipping + tax, the tax at the rate of the
 * shipping country's zone (8% unless set) on the subtotal less the discount (discounts.ts says
 * what a code takes off, never more than the subtotal); the order request's totalUsdc includes
 * the tax. With `pricesIncludeTax` the prices already hold the tax: it is the share
 * rate / (1 + rate) of the subtotal less the discount, shown, and total = subtotal − discount +
 * shipping.
 */
export function storeCheckoutTotals(
  lines: readonly PricedLine[],
  shipping: Usdc,
  taxRateBps: number | bigint = ESTIMATED_TAX_BPS,
  discountOff: Usdc = 0n,
  pricesIncludeTax = false,
): StoreCheckoutTotals {
  const subtotal = subtotalOf(lines);
  const discount = discountOff > subtotal ? subtotal : discountOff < 0n ? 0n : discountOff;
  const tax = pricesIncludeTax
    ? includedTax(subtotal - discount, taxRateBps)
    : estimatedTax(subtotal - discount, taxRateBps);
  const total = subtotal - discount + shipping + (pricesIncludeTax ? 0n : tax);
  return {
    taxIncluded: pricesIncludeTax && tax > 0n,
    subtotal,
    discount,
    shipping,
    tax,
    total,
    subtotalUsdc: formatUsdc(subtotal),
    discountUsdc: formatUsdc(discount),
    shippingUsdc: formatUsdc(shipping),
    taxUsdc: formatUsdc(tax),
    totalUsdc: formatUsdc(total),
  };
}

/**
 * A checkout session's total: its lines' subtotal less the discount (never below zero), its
 * chosen shipping option and the integrator's own tax (a fixed amount, not recomputed).
 */
export function checkoutSessionTotal(
  subtotal: Usdc,
  discountOff: Usdc,
  shipping: Usdc,
  tax: Usdc,
): Usdc {
  const discount = discountOff > subtotal ? subtotal : discountOff < 0n ? 0n : discountOff;
  return subtotal - discount + shipping + tax;
}

/** An order's stored figures that say how its tax was charged. */
export interface OrderTaxFigures {
  subtotalUsdc: string;
  discountUsdc?: string | null;
  shippingUsdc: string;
  taxUsdc: string;
  totalUsdc: string;
}

/**
 * Whether an order's tax was inside its prices: it has tax and its total is subtotal − discount +
 * shipping (an order whose tax was added totals subtotal − discount + shipping + tax).
 */
export function orderTaxIncluded(order: OrderTaxFigures): boolean {
  const amount = (s: string | null | undefined) => (s ? (tryParseUsdc(s) ?? 0n) : 0n);
  const tax = amount(order.taxUsdc);
  if (tax <= 0n) return false;
  return (
    amount(order.subtotalUsdc) - amount(order.discountUsdc) + amount(order.shippingUsdc) ===
    amount(order.totalUsdc)
  );
}

/** The label of an order's tax row: "Tax" when added, "Tax included" when inside the prices. */
export function orderTaxLabel(order: OrderTaxFigures, rate?: string): string {
  const base = orderTaxIncluded(order) ? 'Tax included' : 'Tax';
  return rate ? `${base} (${rate})` : base;
}

/** Shipping settings of a universal checkout link. */
export interface UniversalShippingOptions {
  shipping?: boolean;
  freeShipping?: boolean;
  standardShipping?: string;
  expressShipping?: string;
}

/**
 * Default universal method (docs/rules.md#shipping-methods): free if enabled, else standard if
 * priced, else express; none without shipping.
 */
export function defaultUniversalShippingMethod(
  options: UniversalShippingOptions,
): ShippingMethod | undefined {
  if (!options.shipping) return undefined;
  if (options.freeShipping) return 'free';
  if (options.standardShipping) return 'standard';
  return 'express';
}

/** Universal shipping: free 0; standard/express the link's price, else the default price; no method 0. */
export function universalShippingFor(
  method: ShippingMethod | undefined,
  options: UniversalShippingOptions,
): Usdc {
  if (method === undefined || method === 'free') return 0n;
  const override = method === 'standard' ? options.standardShipping : options.expressShipping;
  return override ? parseUsdc(override) : shippingFor(method);
}

/** Totals of the universal checkout, as bigint and as 2-decimal strings. */
export interface UniversalCheckoutTotals {
  subtotal: Usdc;
  shipping: Usdc;
  total: Usdc;
  subtotalUsdc: string;
  shippingUsdc: string;
  totalUsdc: string;
}

/** Universal checkout: total = subtotal + shipping (no tax). */
export function universalCheckoutTotals(
  lines: readonly PricedLine[],
  method: ShippingMethod | undefined,
  options: UniversalShippingOptions,
): UniversalCheckoutTotals {
  const subtotal = subtotalOf(lines);
  const shipping = universalShippingFor(method, options);
  const total = subtotal + shipping;
  return {
    subtotal,
    shipping,
    total,
    subtotalUsdc: formatUsdc(subtotal),
    shippingUsdc: formatUsdc(shipping),
    totalUsdc: formatUsdc(total),
  };
}
