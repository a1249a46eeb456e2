// States stored in the database besides the order status (status.ts) and the payment state
// (payment-state.ts). The database holds each in a CHECK constraint built from these lists
// (api/src/db/schema.ts), so a value written anywhere else fails loudly instead of being stored.

/**
 * Forwarding status of a deposit wallet (`payment_wallets.forwarding_status`): none (nothing to
 * forward yet), forwarding, completed, retrying (a failure that will be retried), waiting_relayer
 * (waits for the platform's relayer; resumes by itself, never counted as a failure), failed
 * (stopped until someone retries it) or canceled (a reorg took the payment away: its legs were
 * cancelled on chain, nothing is owed; forwarding resumes by itself if the payment comes back).
 */
export const FORWARDING_STATUSES = [
  'none',
  'forwarding',
  'completed',
  'retrying',
  'waiting_relayer',
  'failed',
  'canceled',
] as const;
/** A wallet's forwarding status. */
export type ForwardingStatus = (typeof FORWARDING_STATUSES)[number];

/**
 * Status of one forwarding transaction (`forwarding_transfers.status`), in order: planned (written
 * before anything is signed), signed, sent (its transaction stored and broadcast), mined (in a
 * block, below the confirmation depth) and confirmed (at depth). Off that path: reverted (its
 * transaction was mined and failed; the hash and gas are kept, the leg is sent again or cancelled),
 * canceling (its EIP-3009 authorization is being cancelled on chain, the cancellation's
 * transaction recorded) and canceled (it can never pay: cancelled at depth, or never signed).
 */
export const FORWARDING_LEG_STATUSES = [
  'planned',
  'signed',
  'sent',
  'mined',
  'confirmed',
  'reverted',
  'canceling',
  'canceled',
] as const;
/** A forwarding transaction's status. */
export type ForwardingLegStatus = (typeof FORWARDING_LEG_STATUSES)[number];
/** Leg statuses that are done (nothing of theirs is open): the round's others are still open. */
export const CLOSED_LEG_STATUSES = ['confirmed', 'canceled'] as const;

/** Status of a webhook delivery (`webhook_deliveries.status`): pending (due or retrying), delivered or failed (given up). */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
/** A webhook delivery's status. */
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * What is stored of a checkout session (`checkout_sessions.status`): open (its link can be checked
 * out until `expires_at`), submitted (the shopper sent the form: its order exists, paid or not) or
 * expired (marked once its link is opened or read after `expires_at` without an order). Whether
 * it is paid is the order's to say (see CHECKOUT_SESSION_STATUSES).
 */
export const CHECKOUT_SESSION_STORED_STATUSES = ['open', 'submitted', 'expired'] as const;
/** A checkout session's stored status. */
export type CheckoutSessionStoredStatus = (typeof CHECKOUT_SESSION_STORED_STATUSES)[number];

/**
 * A checkout session's status as the API reports it: open (not submitted yet), awaiting_payment
 * (the shopper submitted; its order is not paid, or its payment left the chain), completed (its
 * order is paid: fulfil now) or expired (no order before the session expired, or its order's
 * payment window closed unpaid).
 */
export const CHECKOUT_SESSION_STATUSES = [
  'open',
  'awaiting_payment',
  'completed',
  'expired',
] as const;
/** A checkout session's reported status. */
export type CheckoutSessionStatus = (typeof CHECKOUT_SESSION_STATUSES)[number];

/** Mode of an API key: test keys (`sk_test_…`) on test chains, live keys (`sk_live_…`) on Base mainnet. */
export const API_KEY_MODES = ['test', 'live'] as const;
/** An API key's mode. */
export type ApiKeyMode = (typeof API_KEY_MODES)[number];

/**
 * Status of a message in the email outbox (`email_outbox.status`): pending (due or retrying), sent,
 * or failed (given up after the retry window, or never sent because no mail server was configured
 * while it could still matter).
 */
export const EMAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
/** An outgoing email's status. */
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/**
 * Status of a refund (`refunds.status`): awaiting_address (the payer has not confirmed where the
 * money goes yet), ready (an address is confirmed; the worker will send it), sending (its
 * transaction exists or may exist), refunded (confirmed on chain), canceled (withdrawn before
 * anything was sent) or failed (stopped until someone retries it).
 */
export const REFUND_STATUSES = [
  'awaiting_address',
  'ready',
  'sending',
  'refunded',
  'canceled',
  'failed',
] as const;
/** A refund's status. */
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * Where a refund's money comes from (`refunds.source`): deposit (still on the order's deposit
 * address: an overpaid excess, an underpaid or expired order, an oversold one; sent by the worker
 * with EIP-3009 like forwarding) or merchant (already forwarded: the merchant sends it from the
 * payout wallet with one browser-wallet transaction, which the indexer then matches).
 */
export const REFUND_SOURCES = ['deposit', 'merchant'] as const;
/** Where a refund's money comes from. */
export type RefundSource = (typeof REFUND_SOURCES)[number];
