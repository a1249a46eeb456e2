// USDC amounts as the merchant's pages show them: "1,234.56 USDC" (cents, rounded half up), the
// token and never dollars. Grouped on the decimal string, so no float touches the amount.
import { formatUsdc, parseUsdc, type Usdc } from '@store/shared';

/** "1,234.56 USDC" of a decimal string ("1234.555" or "1234.560000") or of base units. */
export function usdcText(amount: string | Usdc): string {
  const cents = formatUsdc(typeof amount === 'bigint' ? amount : parseUsdc(amount));
  const [whole = '0', fraction = '00'] = cents.split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction} USDC`;
}
