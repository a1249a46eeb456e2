// What the order page says about a payment: the stored exception of a deposit address with its
// amounts (underpaid: what arrived and what is missing; overpaid: the extra; paid late), and a
// forwarding leg's amount (base units) as USDC.
import { tryParseUsdc } from '@store/shared';
import { usdcExact } from '../lib/format.ts';

/** The exception of a payment, with its amounts as exact USDC text; undefined when none. */
export type PaymentException =
  | { kind: 'underpaid'; received: string; missing: string }
  | { kind: 'accepted_underpaid'; received: string; missing: string }
  | { kind: 'overpaid'; received: string; extra: string }
  | { kind: 'paid_late' };

/**
 * The stored exception of a deposit address (`stored`, as the API gives it) with its amounts for
 * the page: what arrived (`detected`, every transfer seen, for an underpaid payment still
 * confirming; else `received`) against `expected`. Note: the exception itself is never derived
 * here; the server stores it with the payment.
 */
export function paymentException(
  stored: string,
  expected: string,
  received: string,
  detected = received,
): PaymentException | undefined {
  if (stored === 'paid_late') return { kind: 'paid_late' };
  const want = tryParseUsdc(expected);
  const confirmed = tryParseUsdc(received);
  const seen = tryParseUsdc(detected) ?? confirmed;
  if (want === undefined || confirmed === undefined || seen === undefined) return undefined;
  // Note: an underpaid payment is decided on what was seen, before the confirmation depth.
  let got = confirmed;
  if (seen > got) got = seen;
  if (stored === 'underpaid' || stored === 'accepted_underpaid') {
    const missing = want > got ? want - got : 0n;
    return { kind: stored, received: usdcExact(got), missing: usdcExact(missing) };
  }
  if (stored === 'overpaid')
    return {
      kind: 'overpaid',
      received: usdcExact(got),
      extra: usdcExact(got > want ? got - want : 0n),
    };
  return undefined;
}

/** A forwarding leg's value (USDC base units, as the API gives it) as exact USDC text. */
export function legAmount(baseUnits: string): string {
  if (!/^\d+$/.test(baseUnits)) return baseUnits;
  return usdcExact(BigInt(baseUnits));
}
