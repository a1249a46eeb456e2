// Payment schemas: the wallet assignment call and its answer, and the status check.
import * as v from 'valibot';
import { DEFAULT_CHAIN, PAYMENT_CHAINS } from '../constants.ts';
import { PAYMENT_EXCEPTIONS } from '../payment-state.ts';
import { API_PAYMENT_STATUSES } from '../status.ts';
import { MoneyStringSchema, TimestampSchema, UsdcAmountStringSchema } from './common.ts';

/** A chain a payment can be requested on (Base only). */
export const PaymentChainSchema = v.picklist(PAYMENT_CHAINS, 'Unsupported payment chain');
/** A payment chain name. */
export type PaymentChain = v.InferOutput<typeof PaymentChainSchema>;

/** The wallet a shopper pays to: address, expected amount (2 decimals) and chain. */
export const PaymentWalletResponseSchema = v.object({
  address: v.string(),
  expectedAmount: MoneyStringSchema,
  chain: v.string(),
  /**
   * Until when the order's units of tracked products are kept for it (asking for the wallet holds
   * them); null when it holds nothing.
   */
  stockHeldUntil: v.optional(v.nullable(v.string())),
  /** End of the payment window (what the countdown shows). */
  expiredAt: v.nullish(TimestampSchema),
});
/** The wallet a shopper pays to. */
export type PaymentWalletResponse = v.InferOutput<typeof PaymentWalletResponseSchema>;

/** Body of POST /api/orders/{id}/assign-payment-wallet; paymentChain defaults to 'base'. */
export const AssignPaymentWalletSchema = v.object({
  paymentChain: v.optional(PaymentChainSchema, DEFAULT_CHAIN),
});
/** A validated wallet assignment body. */
export type AssignPaymentWallet = v.InferOutput<typeof AssignPaymentWalletSchema>;

/** Response of the wallet assignment (and of the universal wallet creation): {paymentWallet}. */
export const PaymentWalletEnvelopeSchema = v.object({ paymentWallet: PaymentWalletResponseSchema });
/** Response carrying a payment wallet. */
export type PaymentWalletEnvelope = v.InferOutput<typeof PaymentWalletEnvelopeSchema>;

/** Response of GET /api/check-payment-status/{orderId}. */
export const PaymentStatusResponseSchema = v.object({
  paymentDetected: v.boolean(),
  status: v.picklist(API_PAYMENT_STATUSES),
  // Note: optional only so that older two-field responses still parse; the API sends them all.
  /** Everything seen at the deposit address so far, 6 decimals. */
  receivedAmount: v.optional(UsdcAmountStringSchema),
  expectedAmount: v.optional(MoneyStringSchema),
  /** End of the payment window (what every countdown shows); null before a wallet exists. */
  expiredAt: v.nullish(TimestampSchema),
  /**
   * Blocks the payment has on the chain, its own included, at most `requiredConfirmations`: of
   * the transfer that completed the amount (or the latest one while part is missing); 0 before
   * any; null when only the worker's stored state is known.
   */
  confirmations: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0))),
  /** Blocks a payment needs before it counts as received (CONFIRMATIONS). */
  requiredConfirmations: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  /**
   * What went wrong with the payment, as stored (PAYMENT_EXCEPTIONS); for a payment seen in full
   * but not yet at depth, the exception it is heading for (reportedPaymentException).
   */
  exception: v.optional(v.picklist(PAYMENT_EXCEPTIONS)),
});
/** A payment status check result. */
export type PaymentStatusResponse = v.InferOutput<typeof PaymentStatusResponseSchema>;
