// Pure helpers of the payment pages (docs/screens.md#payment-panel): the card on-ramp link, the
// h:mm:ss countdown, when a status check counts as confirmed, and the universal return URL.
import { CONFIRMED_API_PAYMENT_STATUSES } from './status.ts';

/** The card on-ramp (a hosted widget opened in a new tab; the partner order id ties it back). */
export const ONRAMP_DEFAULT_URL = 'https://global.transak.com/';

/** What the on-ramp link carries. */
export interface OnrampLinkInput {
  walletAddress: string;
  /** Exact USDC amount, 2 decimals; bought with the same number of US dollars. */
  amountUsdc: string;
  customerEmail?: string | null;
  /** The on-ramp's name of the network (the chain facts' `onrampNetwork`). */
  network: string;
  /** Where the on-ramp sends the shopper back: the payment page. */
  redirectUrl: string;
  /** Last 8 characters uppercase (store page) or the full order id (universal page). */
  partnerOrderId: string;
  /** The operator's on-ramp API key, when one is configured. */
  apiKey?: string;
  baseUrl?: string;
}

/** The 'Buy USDC with Card' URL: wallet, amount in USD, USDC on the network, email, redirect back. */
export function buildOnrampUrl(input: OnrampLinkInput): string {
  const url = new URL(input.baseUrl ?? ONRAMP_DEFAULT_URL);
  const set = (name: string, value: string | null | undefined) => {
    if (value) url.searchParams.set(name, value);
  };
  set('apiKey', input.apiKey);
  set('walletAddress', input.walletAddress);
  set('fiatAmount', input.amountUsdc);
  set('fiatCurrency', 'USD');
  set('cryptoCurrencyCode', 'USDC');
  set('network', input.network);
  set('email', input.customerEmail);
  set('redirectURL', input.redirectUrl);
  set('partnerOrderId', input.partnerOrderId);
  return url.toString();
}

/** Whole seconds from `now` until `expiredAt` (never negative); undefined for a missing/bad date. */
export function secondsUntil(
  expiredAt: string | null | undefined,
  now: number,
): number | undefined {
  if (!expiredAt) return undefined;
  const end = Date.parse(expiredAt);
  if (Number.isNaN(end)) return undefined;
  return Math.max(0, Math.floor((end - now) / 1000));
}

/** A countdown as h:mm:ss ("6:00:00", "0:04:09"), with whole days before it ("6d 23:59:57"). */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const clock = `${hours}:${String(minutes).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
  return days > 0 ? `${days}d ${clock}` : clock;
}

/** True when a status check means the payment is in: detected, received or already forwarded. */
export function isConfirmedPaymentStatus(check: {
  paymentDetected: boolean;
  status: string;
}): boolean {
  return (
    check.paymentDetected ||
    check.status === 'forwarded' ||
    (CONFIRMED_API_PAYMENT_STATUSES as readonly string[]).includes(check.status)
  );
}

/**
 * The integrator's returnUrl with orderId and status=success added
 * (docs/screens.md#universal-payment-page).
 */
export function buildReturnUrl(returnUrl: string, orderId: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('orderId', orderId);
  url.searchParams.set('status', 'success');
  return url.toString();
}
