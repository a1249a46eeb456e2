// Messages, settings and response shapes of the payment routes.
import { type ApiPaymentStatus, type PaymentException, ZERO_TOTAL_MESSAGE } from '@store/shared';
import { type DepositAddress, depositAddressDeriver } from '@store/shared/deposit-address';
import type { AppDeps } from '../../context.ts';
import type { Database } from '../../db/client.ts';

/** Texts of the payment errors (docs/messages.md#api-messages). */
export const PAYMENT_API_MESSAGES = {
  noPaymentAddress:
    "This store has no payment address yet, so its orders cannot be paid; the merchant must add one in the store's settings",
  noUniversalPaymentAddress: 'This order has no payment address to settle to',
  notPending: (status: string) => `This order is ${status}; it takes no new payment`,
  zeroTotal: ZERO_TOTAL_MESSAGE,
} as const;

/** What the payment services need from the app. */
export interface PaymentDeps {
  db: Database;
  chainId: number;
  confirmations: number;
  windowMs: number;
  statusReadsIndexer: boolean;
  /** How long an order holds its units of tracked products once asked to pay (STOCK_HOLD_MINUTES). */
  holdMinutes: number;
  derive: (index: number) => DepositAddress;
}

const derivers = new Map<string, (index: number) => DepositAddress>();

/** Builds the payment services' dependencies from the app's (the xpub is parsed once). */
export function paymentDeps({ db, config }: AppDeps): PaymentDeps {
  let derive = derivers.get(config.paymentXpub);
  if (!derive) {
    derive = depositAddressDeriver(config.paymentXpub);
    derivers.set(config.paymentXpub, derive);
  }
  return {
    db,
    chainId: config.chain.chainId,
    confirmations: config.confirmations,
    windowMs: Math.round(config.paymentWindowHours * 3_600_000),
    statusReadsIndexer: config.statusReadsIndexer,
    holdMinutes: config.stockHoldMinutes,
    derive,
  };
}

/** The wallet a shopper pays to (docs/payments.md#deposit-address) and when its window ends. */
export interface PaymentWalletView {
  address: string;
  expectedAmount: string;
  chain: string;
  expiredAt: string | null;
  stockHeldUntil: string | null;
}

/** Response of GET /api/check-payment-status/{orderId}. */
export interface PaymentStatusView {
  paymentDetected: boolean;
  status: ApiPaymentStatus;
  /** Everything seen at the deposit address, at any depth, with all 6 decimals. */
  receivedAmount: string;
  expectedAmount: string;
  expiredAt: string | null;
  /**
   * Blocks the payment has, its own included, at most `requiredConfirmations` (of the transfer
   * that completed the amount, else the latest); null when only the stored state is known.
   */
  confirmations: number | null;
  /** Blocks a payment needs before it counts as received. */
  requiredConfirmations: number;
  /** The payment's exception as stored, or heading for while detected (reportedPaymentException). */
  exception: PaymentException;
}
