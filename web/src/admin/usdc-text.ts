// USDC amounts as the merchant's pages show them: "1,234.56 USDC" (cents, rounded half up), the
// token and never dollars. Grouped on the decimal string, so no float touches the amount.
import { formatUsdc, formatUsdcFull, parseUsdc, type Usdc } from '@store/shared';

/** "1,234.56 USDC" of a decimal string ("1234.555" or "1234.560000") or of base units. */
export function usdcText(amount: string | Usdc): string {
  const cents = formatUsdc(typeof amount === 'bigint' ? amount : parseUsdc(amount));
  const [whole = '0', fraction = '00'] = cents.split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction} USDC`;
}

/**
 * An exact USDC amount, every base unit kept but no zero past the cents: "25.4016 USDC",
 * "-2.00 USDC", "1,234.50 USDC" (the payouts page's and the dashboard's money figures).
 */
export function exactUsdcText(amount: string | Usdc): string {
  const full = formatUsdcFull(typeof amount === 'bigint' ? amount : parseSigned(amount));
  const [whole = '0', fraction = '000000'] = full.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${grouped}.${fraction.replace(/(\d\d\d*?)0+$/, '$1')} USDC`;
}

const parseSigned = (amount: string): Usdc =>
  amount.startsWith('-') ? -parseUsdc(amount.slice(1)) : parseUsdc(amount);
