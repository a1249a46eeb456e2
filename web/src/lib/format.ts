// Display helpers for money and text; amounts stay decimal strings, never floats.
import {
  DESCRIPTION_TRUNCATE_LENGTH,
  formatUsdc,
  formatUsdcFull,
  tryParseUsdc,
  type Usdc,
} from '@store/shared';

/** "12.99 USDC" from a decimal string (2 decimals, rounded half up); the raw text when invalid. */
export function usdc(amount: string | null | undefined): string {
  if (amount === null || amount === undefined) return '— USDC';
  const value = tryParseUsdc(amount);
  return `${value === undefined ? amount : formatUsdc(value)} USDC`;
}

/** An exact amount, at least 2 decimals and no trailing zeros beyond ("5.5" → "5.50", "0.123400" → "0.1234"). */
export function usdcExact(amount: Usdc): string {
  return formatUsdcFull(amount).replace(/(\.\d\d\d*?)0+$/, '$1');
}

/**
 * A card description cut to 100 characters (docs/screens.md#storefront), with an ellipsis when cut.
 */
export function truncateDescription(text: string | null | undefined): string {
  if (!text) return '';
  if (text.length <= DESCRIPTION_TRUNCATE_LENGTH) return text;
  return `${text.slice(0, DESCRIPTION_TRUNCATE_LENGTH).trimEnd()}…`;
}

/**
 * True for a 1-2 character emoji logo (docs/rules.md#store-form: a logo may be a URL or an emoji).
 */
export function isEmojiLogo(logo: string | null | undefined): logo is string {
  if (!logo) return false;
  return [...logo].length <= 2 && !/^[\w./:]/.test(logo);
}
