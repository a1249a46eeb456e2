// What the order page says about a payment: the exception of a deposit address (underpaid: what
// arrived and what is missing; overpaid: the extra; paid late), from the expected and received
// amounts, and a forwarding leg's amount (base units) as USDC.
import { tryParseUsdc } from '@store/shared';
import { usdcExact } from '../lib/format.ts';

/** The exception of a payment, with its amounts as exact USDC text; undefined when none. */
export type PaymentException =
  | { kind: 'underpaid'; received: string; missing: string }
  | { kind: 'overpaid'; received: string; extra: string }
  | { kind: 'paid_late' };

/**
 * The exception of a deposit address in `paymentStatus` that expected `expected` and got
 * `received` (confirmed) of the `detected` seen. Note: an underpaid payment is decided on what
 * was seen, before the confirmation depth.
 */
export function paymentException(
  paymentStatus: string,
  expected: string,
  received: string,
  detected = received,
): PaymentException | undefined {
  const want = tryParseUsdc(expected);
  const confirmed = tryParseUsdc(received);
  const seen = tryParseUsdc(detected) ?? confirmed;
  const got =
    paymentStatus === 'underpaid' &&
    seen !== undefined &&
    confirmed !== undefined &&
    seen > confirmed
      ? seen
      : confirmed;
  if (paymentStatus === 'paid_late') return { kind: 'paid_late' };
  if (want === undefined || got === undefined) return undefined;
  // Note: an expired address that got something but not enough is underpaid too.
  if ((paymentStatus === 'underpaid' || paymentStatus === 'expired') && got > 0n && got < want)
    return { kind: 'underpaid', received: usdcExact(got), missing: usdcExact(want - got) };
  if (paymentStatus === 'overpaid' && got > want)
    return { kind: 'overpaid', received: usdcExact(got), extra: usdcExact(got - want) };
  return undefined;
}

/** A forwarding leg's value (USDC base units, as the API gives it) as exact USDC text. */
export function legAmount(baseUnits: string): string {
  if (!/^\d+$/.test(baseUnits)) return baseUnits;
  return usdcExact(BigInt(baseUnits));
}
