// The payment page's state machine (docs/payments.md#what-the-shopper-sees): request the wallet,
// poll every 10 s until the payment is in, manual checks with their toasts, failure on wallet
// errors or (store page) expiry, Try Again, and the hand-off to the caller's redirect 2 s after
// confirmation.
import {
  type ClientPaymentStatus,
  CONFIRMATION_REDIRECT_DELAY_MS,
  PAYMENT_MESSAGES,
  PAYMENT_POLL_INTERVAL_MS,
  PAYMENT_RETRY_COUNTDOWN_SECONDS,
  type PaymentStatusResponse,
  tryParseUsdc,
} from '@store/shared';
import { isConfirmedPaymentStatus } from '@store/shared/payment-display';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, newIdempotencyKey } from '../../lib/api.ts';
import { usdcExact } from '../../lib/format.ts';
import { usePaymentEvents } from '../../lib/payment-events.ts';
import {
  type AssignedWallet,
  assignPaymentWallet,
  checkPaymentStatus,
} from '../../lib/shop-api.ts';
import { toast, toastError } from '../../lib/toast.ts';

/** The toast of a manual check that found part of the amount; undefined otherwise. */
function partialPaymentToast(check: PaymentStatusResponse) {
  if (check.status !== 'underpaid') return undefined;
  const received = tryParseUsdc(check.receivedAmount ?? '');
  const expected = tryParseUsdc(check.expectedAmount ?? '');
  if (received === undefined || expected === undefined || received >= expected) return undefined;
  return PAYMENT_MESSAGES.partlyReceived(
    usdcExact(received),
    usdcExact(expected),
    usdcExact(expected - received),
  );
}

/** How the payment was confirmed: the universal page redirects differently for each. */
export type ConfirmedBy = 'poll' | 'manual' | 'already-paid';

/** Options of a payment page. */
export interface PaymentOptions {
  orderId: string;
  /** False until the order is loaded; an order that is already paid starts confirmed. */
  orderStatus: string | undefined;
  kind: 'store' | 'universal';
  /** Called 2 s after confirmation. */
  onConfirmed: (by: ConfirmedBy) => void;
}

/** What a payment page renders. */
export interface PaymentSession {
  status: ClientPaymentStatus;
  wallet: AssignedWallet | undefined;
  /** The server's end of the payment window. */
  expiredAt: string | null | undefined;
  /** The last status check (received/expected amounts, underpaid). */
  lastCheck: PaymentStatusResponse | undefined;
  checkNow: () => Promise<void>;
  tryAgain: () => void;
  /** The countdown reached zero (the store page then fails). */
  expire: () => void;
}

/** Runs the payment flow of one order. */
export function usePayment(options: PaymentOptions): PaymentSession {
  const { orderId, orderStatus, kind } = options;
  const [status, setStatus] = useState<ClientPaymentStatus>('waiting');
  const [wallet, setWallet] = useState<AssignedWallet>();
  const [lastCheck, setLastCheck] = useState<PaymentStatusResponse>();
  const [attempt, setAttempt] = useState(0);
  // Note: Try Again on the store page grants 15 minutes (docs/screens.md#store-payment-page) when
  // the server window is over; the server still honours a late payment, so the countdown does not
  // lie.
  const [graceUntil, setGraceUntil] = useState<number>();
  const inGrace = useRef<() => boolean>(() => false);
  inGrace.current = () => graceUntil !== undefined && graceUntil > Date.now();
  const confirmed = useRef(false);
  const onConfirmed = useRef(options.onConfirmed);
  onConfirmed.current = options.onConfirmed;

  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  const confirm = useCallback((by: ConfirmedBy) => {
    if (confirmed.current) return;
    confirmed.current = true;
    setStatus('confirmed');
    redirect.current = setTimeout(() => onConfirmed.current(by), CONFIRMATION_REDIRECT_DELAY_MS);
  }, []);
  // A shopper who leaves within the 2 s is not pulled back to the thank-you page.
  useEffect(() => () => clearTimeout(redirect.current), []);

  // An order that is already paid needs no wallet: confirm and move on.
  const paid = orderStatus !== undefined && orderStatus !== 'pending';
  useEffect(() => {
    if (paid) confirm('already-paid');
  }, [paid, confirm]);

  // Request the wallet (again after Try Again); a fresh key so a failed attempt is not replayed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts the request.
  useEffect(() => {
    if (orderStatus !== 'pending') return;
    let live = true;
    setStatus('processing');
    assignPaymentWallet(orderId, newIdempotencyKey()).then(
      (assigned) => {
        if (!live) return;
        setWallet(assigned);
        if (!confirmed.current) setStatus('waiting');
      },
      (error: unknown) => {
        if (!live) return;
        const what =
          kind === 'universal'
            ? PAYMENT_MESSAGES.universalWalletFailed
            : PAYMENT_MESSAGES.assignWalletFailed;
        console.error(what, error);
        // Note: 409 says why (the order's items sold out before it could hold them).
        toastError(
          PAYMENT_MESSAGES.walletGenerationFailed.title,
          error instanceof ApiError && error.status === 409
            ? error.text
            : PAYMENT_MESSAGES.walletGenerationFailed.description,
        );
        setStatus('failed');
      },
    );
    return () => {
      live = false;
    };
  }, [orderId, orderStatus, attempt]);

  const record = useCallback(
    (check: PaymentStatusResponse, by: ConfirmedBy): boolean => {
      setLastCheck(check);
      if (isConfirmedPaymentStatus(check)) {
        confirm(by);
        return true;
      }
      if (check.status === 'expired' && !inGrace.current()) setStatus('failed');
      return false;
    },
    [confirm],
  );

  // The status pushed as it changes (the same view as the poll's, sooner); it goes on after
  // confirmation so the page shows the confirmations, and ends once the order is paid.
  const live = useRef(false);
  live.current = usePaymentEvents(orderId, wallet !== undefined, (view) => record(view, 'poll'));

  // Poll every 10 s while not confirmed; polling errors are only logged
  // (docs/payments.md#what-the-shopper-sees).
  // Note: a tick is skipped while the push channel is open; the poll is its fallback.
  useEffect(() => {
    if (!wallet || status === 'confirmed') return;
    const timer = setInterval(() => {
      if (live.current) return;
      checkPaymentStatus(orderId).then(
        (check) => record(check, 'poll'),
        (error: unknown) => console.warn(PAYMENT_MESSAGES.checkStatusFailed, error),
      );
    }, PAYMENT_POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [wallet, status, orderId, record]);

  const checkNow = useCallback(async () => {
    setStatus('processing');
    try {
      const check = await checkPaymentStatus(orderId);
      if (record(check, 'manual')) return;
      toast(partialPaymentToast(check) ?? PAYMENT_MESSAGES.notDetected);
      setStatus(check.status === 'expired' && !inGrace.current() ? 'failed' : 'waiting');
    } catch (error) {
      console.warn(PAYMENT_MESSAGES.checkStatusFailed, error);
      toastError(
        PAYMENT_MESSAGES.checkStatusToast.title,
        PAYMENT_MESSAGES.checkStatusToast.description,
      );
      setStatus('waiting');
    }
  }, [orderId, record]);

  // Note: the universal page keeps its wallet and window unless it never got a wallet;
  // then waiting without one would wait forever, so it asks for one again.
  const hasWallet = wallet !== undefined;
  const tryAgain = useCallback(() => {
    setStatus('waiting');
    if (kind === 'store') {
      setGraceUntil(Date.now() + PAYMENT_RETRY_COUNTDOWN_SECONDS * 1000);
      setWallet(undefined);
      setAttempt((n) => n + 1);
    } else if (!hasWallet) {
      setAttempt((n) => n + 1);
    }
  }, [kind, hasWallet]);

  const expire = useCallback(() => {
    if (kind === 'store' && !confirmed.current) setStatus('failed');
  }, [kind]);

  const serverExpiry = lastCheck?.expiredAt ?? wallet?.expiredAt;
  const expiredAt =
    graceUntil !== undefined && (!serverExpiry || Date.parse(serverExpiry) < graceUntil)
      ? new Date(graceUntil).toISOString()
      : serverExpiry;
  return {
    status,
    wallet,
    expiredAt,
    lastCheck,
    checkNow,
    tryAgain,
    expire,
  };
}
