// Refunds on the wire: the payer's claim (the address the money goes back to), the merchant's
// requests, and what the API answers (amounts in USDC, 6 decimals).
import * as v from 'valibot';
import { isZeroAddress } from '../address.ts';
import { hasValidChecksum } from '../address-checksum.ts';
import { PAYMENT_EXCEPTIONS, PAYMENT_STATES } from '../payment-state.ts';
import { REFUND_SOURCES, REFUND_STATUSES } from '../stored-states.ts';
import { UsdcAmountStringSchema } from './common.ts';

/** Texts of the refund forms and answers. */
export const REFUND_MESSAGES = {
  address: 'Enter a wallet address: 0x followed by 40 hexadecimal characters',
  checksum: 'This address has a typo: its upper and lower case letters do not match its checksum',
  zero: 'The zero address burns what it receives; enter your own wallet address',
  deposit: 'This is a payment address of ours, not your wallet; enter your own wallet address',
  amount: 'Enter an amount in USDC with at most 6 decimals, above 0',
  exchangeWarning:
    'If you paid from an exchange, its deposit address may not credit a refund: enter an address of a wallet you control.',
  addressLocked:
    'From this page the refund can only go back to the address that paid. To send it elsewhere, open the refund link in the email we sent you.',
} as const;

/**
 * Why a refund exists. 'undelivered': a paid HTTP 402 (x402) request whose resource failed after
 * the payment settled; it goes back to the payer (the authorization's signer) without a claim.
 */
export const REFUND_REASONS = [
  'excess',
  'underpaid',
  'expired',
  'oversold',
  'merchant',
  'undelivered',
] as const;
/** A refund's reason. */
export type RefundReason = (typeof REFUND_REASONS)[number];

/** The payer's claim: the address the refund goes to (checksummed if mixed case, never zero). */
export const ClaimRefundSchema = v.object({
  address: v.pipe(
    v.string(REFUND_MESSAGES.address),
    v.trim(),
    v.maxLength(42, REFUND_MESSAGES.address),
    v.regex(/^0x[0-9a-fA-F]{40}$/, REFUND_MESSAGES.address),
    v.check(hasValidChecksum, REFUND_MESSAGES.checksum),
    v.check((s) => !isZeroAddress(s), REFUND_MESSAGES.zero),
  ),
});
/** A claim body. */
export type ClaimRefundBody = v.InferOutput<typeof ClaimRefundSchema>;

/**
 * The merchant's refund of an order: none (the money still on the deposit address of an underpaid
 * or expired order, all of it) or, for a forwarded order, `amount` (USDC; the rest of what is
 * refundable when absent).
 */
export const CreateRefundSchema = v.object({
  amount: v.optional(
    v.pipe(
      v.string(REFUND_MESSAGES.amount),
      v.maxLength(24, REFUND_MESSAGES.amount),
      v.regex(/^\d{1,12}(?:\.\d{1,6})?$/, REFUND_MESSAGES.amount),
      v.check((s) => /[1-9]/.test(s), REFUND_MESSAGES.amount),
    ),
  ),
});
/** The merchant's wallet sent a merchant refund: its transaction hash. */
export const RefundSentSchema = v.object({
  txHash: v.pipe(
    v.string('Give the transaction hash'),
    v.maxLength(66, 'A transaction hash is 0x followed by 64 hexadecimal characters'),
    v.regex(
      /^0x[0-9a-fA-F]{64}$/,
      'A transaction hash is 0x followed by 64 hexadecimal characters',
    ),
  ),
});

/** A merchant's refund body. */
export type CreateRefundBody = v.InferOutput<typeof CreateRefundSchema>;

const address = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/));

/** One refund as the merchant's API answers it. */
export const RefundSchema = v.object({
  id: v.string(),
  orderId: v.string(),
  source: v.picklist(REFUND_SOURCES),
  reason: v.picklist(REFUND_REASONS),
  amount: UsdcAmountStringSchema,
  status: v.picklist(REFUND_STATUSES),
  suggestedAddress: v.nullable(address),
  toAddress: v.nullable(address),
  txHash: v.nullable(v.string()),
  blockNumber: v.nullable(v.string()),
  lastError: v.nullable(v.string()),
  createdAt: v.string(),
  claimedAt: v.nullable(v.string()),
  completedAt: v.nullable(v.string()),
});
/** A refund. */
export type Refund = v.InferOutput<typeof RefundSchema>;

/** An order's money and refunds, for its merchant: what arrived, is missing, extra, refundable. */
export const OrderRefundsSchema = v.object({
  orderId: v.string(),
  /** Where the payment is (PAYMENT_STATES); null before the shopper opened the payment page. */
  paymentStatus: v.nullable(v.picklist(PAYMENT_STATES)),
  /** What went wrong with it, as stored beside its state (PAYMENT_EXCEPTIONS). */
  paymentException: v.nullable(v.picklist(PAYMENT_EXCEPTIONS)),
  expectedAmount: UsdcAmountStringSchema,
  receivedAmount: UsdcAmountStringSchema,
  missingAmount: UsdcAmountStringSchema,
  extraAmount: UsdcAmountStringSchema,
  forwardedAmount: UsdcAmountStringSchema,
  /** Still on the deposit address and not held for a refund. */
  onDepositAmount: UsdcAmountStringSchema,
  /** Whether the merchant may accept the underpaid order as paid, or refund it from the deposit. */
  canAcceptUnderpaid: v.boolean(),
  canRefundDeposit: v.boolean(),
  /** What the merchant may still refund from the payout wallet (a paid, forwarded order). */
  refundableFromPayout: UsdcAmountStringSchema,
  /** The payout address merchant refunds are sent from. */
  payoutAddress: v.nullable(address),
  refunds: v.array(RefundSchema),
});
/** An order's refunds. */
export type OrderRefunds = v.InferOutput<typeof OrderRefundsSchema>;

/** A refund as its claim page shows it to the payer. */
export const RefundClaimSchema = v.object({
  orderId: v.string(),
  orderNumber: v.string(),
  storeName: v.string(),
  amount: UsdcAmountStringSchema,
  reason: v.picklist(REFUND_REASONS),
  status: v.picklist(REFUND_STATUSES),
  /** The address that paid (the sender of the transfers that made up the payment), prefilled. */
  suggestedAddress: v.nullable(address),
  /**
   * True for the order pages' link: it can only confirm the address that paid; the emailed link
   * may choose any address.
   */
  addressLocked: v.optional(v.boolean(), false),
  toAddress: v.nullable(address),
  txHash: v.nullable(v.string()),
  chainId: v.number(),
});
/** A refund claim. */
export type RefundClaim = v.InferOutput<typeof RefundClaimSchema>;

/** The refunds of an order awaiting the payer's address, for its payment and thank-you pages. */
export const OrderRefundClaimsSchema = v.array(
  v.object({
    amount: UsdcAmountStringSchema,
    reason: v.picklist(REFUND_REASONS),
    claimPath: v.string(),
  }),
);
