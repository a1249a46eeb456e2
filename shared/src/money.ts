// USDC money math: bigint base units inside (6 decimals), decimal strings at the edges.
// Note: no Number() or parseFloat on amounts anywhere; every conversion goes through strings.
import {
  BPS_DENOMINATOR,
  PLATFORM_FEE_BPS,
  USDC_CENT,
  USDC_DECIMALS,
  USDC_UNIT,
} from './constants.ts';

/** An amount of USDC in base units (1_000_000n = $1). */
export type Usdc = bigint;

/** Thrown by `parseUsdc` and the arithmetic helpers when an input is not a valid amount. */
export class InvalidAmountError extends Error {
  override readonly name = 'InvalidAmountError';
}

const AMOUNT_PATTERN = /^(\d+)(?:\.(\d{1,6}))?$/;
// decimal(10,2): at most 8 digits before the point and 2 after.
const PRICE_PATTERN = /^\d{1,8}(?:\.\d{1,2})?$/;

/** Parses a non-negative decimal string with at most 6 decimals ("12.99", "10", "0.000001"); throws InvalidAmountError otherwise. */
export function parseUsdc(input: string): Usdc {
  const value = tryParseUsdc(input);
  if (value === undefined) throw new InvalidAmountError(`Invalid USDC amount: "${input}"`);
  return value;
}

/** Like `parseUsdc` but returns undefined instead of throwing. No whitespace, signs, exponents or bare dots. */
export function tryParseUsdc(input: string): Usdc | undefined {
  const match = AMOUNT_PATTERN.exec(input);
  if (!match) return undefined;
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').padEnd(USDC_DECIMALS, '0');
  return BigInt(whole) * USDC_UNIT + BigInt(fraction);
}

/** True for a price string as stored in decimal(10,2): up to 8 integer digits and at most 2 decimals. */
export function isPriceString(input: string): boolean {
  return PRICE_PATTERN.test(input);
}

/** Divides rounding half away from zero (half up for non-negative values); `divisor` must be positive. */
export function divideRoundHalfUp(value: bigint, divisor: bigint): bigint {
  if (divisor <= 0n) throw new InvalidAmountError('Divisor must be positive');
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const quotient = (magnitude + divisor / 2n) / divisor;
  return negative ? -quotient : quotient;
}

/** Rounds an amount to whole cents, half up (the wire carries 2 decimals). */
export function roundToCent(amount: Usdc): Usdc {
  return divideRoundHalfUp(amount, USDC_CENT) * USDC_CENT;
}

/** Formats to a 2-decimal string for the wire and UI ("12.99"), rounding half up to the cent. */
export function formatUsdc(amount: Usdc): string {
  const cents = divideRoundHalfUp(amount, USDC_CENT);
  const sign = cents < 0n ? '-' : '';
  const magnitude = cents < 0n ? -cents : cents;
  return `${sign}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')}`;
}

/** Formats with all 6 decimals ("12.990000"), exact. */
export function formatUsdcFull(amount: Usdc): string {
  const sign = amount < 0n ? '-' : '';
  const magnitude = amount < 0n ? -amount : amount;
  const fraction = (magnitude % USDC_UNIT).toString().padStart(USDC_DECIMALS, '0');
  return `${sign}${magnitude / USDC_UNIT}.${fraction}`;
}

/** Sums amounts (0n for an empty list). */
export function sumUsdc(amounts: readonly Usdc[]): Usdc {
  return amounts.reduce((total, amount) => total + amount, 0n);
}

/** Multiplies an amount by a non-negative integer quantity; throws InvalidAmountError otherwise. */
export function multiplyUsdc(amount: Usdc, quantity: number | bigint): Usdc {
  if (typeof quantity === 'number' && !Number.isSafeInteger(quantity)) {
    throw new InvalidAmountError(`Quantity must be an integer: ${quantity}`);
  }
  const factor = BigInt(quantity);
  if (factor < 0n) throw new InvalidAmountError(`Quantity must not be negative: ${quantity}`);
  return amount * factor;
}

/** Takes `bps` basis points of an amount, rounded half up to the cent (800n bps = 8% tax). */
export function percentOf(amount: Usdc, bps: bigint): Usdc {
  return divideRoundHalfUp(amount * bps, BPS_DENOMINATOR * USDC_CENT) * USDC_CENT;
}

/** The two shares of a received payment. */
export interface FeeSplit {
  /** What the merchant receives: received - fee, never less than (100% - fee rate). */
  merchant: Usdc;
  /** The platform fee, rounded down to the base unit. */
  fee: Usdc;
}

/** Splits a received amount into merchant and platform fee (2% rounded down); merchant + fee === received. */
export function splitFee(received: Usdc, feeBps: bigint = PLATFORM_FEE_BPS): FeeSplit {
  if (received < 0n) throw new InvalidAmountError('Received amount must not be negative');
  if (feeBps < 0n || feeBps > BPS_DENOMINATOR) throw new InvalidAmountError('Fee out of range');
  const fee = (received * feeBps) / BPS_DENOMINATOR;
  return { merchant: received - fee, fee };
}

/** Parses a price string ("12.99", at most 2 decimals, decimal(10,2)); throws InvalidAmountError otherwise. */
export function parsePrice(input: string): Usdc {
  if (!isPriceString(input)) throw new InvalidAmountError(`Invalid price: "${input}"`);
  return parseUsdc(input);
}

/** Re-formats a valid amount string to the canonical 2-decimal wire form ("10" -> "10.00"). */
export function normalizePriceString(input: string): string {
  return formatUsdc(parseUsdc(input));
}
