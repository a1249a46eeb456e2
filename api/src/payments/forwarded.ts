// Whether an order reads as forwarded: derived, never stored. A paid order is forwarded once a
// merchant round reached depth and the forwarding rules leave nothing more for its merchant (what
// is held for the payer, an excess or an oversold refund, is not the merchant's). The status API
// (`forwarded`, paymentDetected), the forwarding view and the merchant's refunds read this.
import { parseUsdc } from '@store/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { paymentWallets } from '../db/schema.ts';
import { merchantDue } from './forwarding-plan.ts';
import type { WalletRow } from './forwarding-store.ts';
import {
  forwardableOf,
  heldSql,
  merchantForwardedSql,
  type RefundFigures,
  refundFigures,
} from './refund-store.ts';

/** The wallet's columns the rule reads. */
export type ForwardedWallet = Parameters<typeof forwardableOf>[0];

/** The refund figures the rule reads: what is held for the payer, what the merchant got. */
export type ForwardedFigures = Pick<RefundFigures, 'held' | 'merchantForwarded'>;

/**
 * Whether `wallet` (with its figures) is forwarded: received, a merchant round confirmed, and
 * nothing more due to the merchant. Note: a round still open (legs not confirmed) or reopened by
 * a reorg leaves its amount due, so it never reads as forwarded; a deposit refund sent later moves
 * its amount from held to forwarded, and money arriving later is the payer's excess, so neither
 * turns a forwarded order back; an underpaid order forwarded at its window's end is not received,
 * so it stays underpaid.
 */
export function isForwarded(wallet: ForwardedWallet, figures: ForwardedFigures): boolean {
  if (wallet.status !== 'received' || figures.merchantForwarded <= 0n) return false;
  // Note: a link order and a declined order only change what an unpaid wallet owes or keeps.
  const forwardable = forwardableOf(wallet, { ...figures, linkOrder: false, declined: false });
  return merchantDue(forwardable, new Date()) === 0n;
}

/** `isForwarded` for a stored wallet, its figures read through `db`. */
export async function walletForwarded(
  db: Executor,
  wallet: ForwardedWallet & Pick<WalletRow, 'id'>,
): Promise<boolean> {
  // Note: only a received wallet with something forwarded can be: no query for the others.
  if (wallet.status !== 'received' || parseUsdc(wallet.forwardedAmountUsdc) === 0n) return false;
  return isForwarded(wallet, await refundFigures(db, wallet.id));
}

/** SQL selecting a payment_wallets row's figures (with the row, for many wallets in one query). */
export const forwardedFiguresSql: SQL<{ held: string; merchant: string }> = sql`json_build_object(
  'held', ${heldSql(paymentWallets.id)}::text,
  'merchant', ${merchantForwardedSql(paymentWallets.id)}::text)`;

/** The figures `forwardedFiguresSql` selected. */
export function forwardedFiguresOf(row: { held: string; merchant: string }): ForwardedFigures {
  return { held: BigInt(row.held), merchantForwarded: BigInt(row.merchant) };
}
