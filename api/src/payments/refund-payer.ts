// Who paid an order: the address a refund of it is suggested to (and the only one the order pages'
// claim link may confirm). Only the transfers that made up the payment count, never a later one:
// - in chain order until their sum reached the order's amount (a transfer after that is a top-up
//   or anyone's dust, not the payment);
// - when the window closed and something arrived within it, only what arrived within it (money
//   sent after the window is not what the order's payer sent toward it);
// - never a transfer from the store's own payout wallet or from one of our deposit addresses.
// Among those, the address that sent the most (the earliest on a tie): someone who sends a little
// (dust) to a deposit address cannot become its payer.
import { parseUsdc, type Usdc } from '@store/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Address, getAddress } from 'viem';
import { indexedTransfer } from '../chain/indexer.ts';
import type { Executor } from '../db/client.ts';
import { x402Payments } from '../db/schema.ts';

/** One incoming transfer of a deposit address, in chain order. */
export interface IncomingTransfer {
  from: string;
  value: Usdc;
  /** Unix seconds of its block. */
  blockTimestamp: bigint;
}

/** What decides which transfers count. */
export interface PayerRules {
  /** The order's amount, in base units. */
  expected: Usdc;
  /** End of the payment window (epoch ms); null when it has none. */
  windowEndsAt: number | null;
  /** Senders that never count (lowercase): the store's payout address, our deposit addresses. */
  excluded: ReadonlySet<string>;
}

/** The transfers that made up the payment (see the file's note), in chain order. */
export function paymentTransfers(
  transfers: readonly IncomingTransfer[],
  rules: PayerRules,
): IncomingTransfer[] {
  const inWindow = (t: IncomingTransfer) =>
    rules.windowEndsAt === null || Number(t.blockTimestamp) * 1000 <= rules.windowEndsAt;
  const counted = transfers.some(inWindow) ? transfers.filter(inWindow) : [...transfers];
  const made: IncomingTransfer[] = [];
  let sum = 0n;
  for (const transfer of counted) {
    if (sum >= rules.expected) break;
    sum += transfer.value;
    made.push(transfer);
  }
  return made;
}

/** The payer's address (checksummed), or null when no transfer that counts has one. */
export function payerOf(transfers: readonly IncomingTransfer[], rules: PayerRules): string | null {
  const sent = new Map<string, Usdc>();
  for (const transfer of paymentTransfers(transfers, rules)) {
    const from = transfer.from.toLowerCase();
    if (rules.excluded.has(from)) continue;
    sent.set(from, (sent.get(from) ?? 0n) + transfer.value);
  }
  let payer: string | null = null;
  let most = 0n;
  // Note: a Map iterates in insertion order, so the earliest sender wins a tie.
  for (const [from, value] of sent)
    if (value > most) {
      payer = from;
      most = value;
    }
  return payer ? getAddress(payer) : null;
}

/** The wallet fields the payer is read from. */
export interface PaidWallet {
  walletAddress: string;
  expectedAmountUsdc: string;
  expiredAt: Date | null;
  storePaymentAddress: string;
  orderId: string;
}

/**
 * The payer of a deposit address, from the indexed transfers (see `payerOf`); the store's payout
 * address (as the wallet recorded it and as the store has it now) and every deposit address of
 * ours are excluded.
 */
export async function payerOfWallet(db: Executor, wallet: PaidWallet): Promise<string | null> {
  const rows = await db.execute<{
    from: string;
    value: string;
    block_timestamp: string;
    ours: boolean;
  }>(sql`
    select t."from", t.value::text as value, t.block_timestamp::text as block_timestamp,
      exists (select 1 from payment_wallets w where lower(w.wallet_address) = t."from") as ours
    from ${indexedTransfer} t where t."to" = ${wallet.walletAddress.toLowerCase()}
    order by t.block_number, t.log_index`);
  const [store] = await db.execute<{ payment_address: string | null }>(sql`
    select s.payment_address from orders o join stores s on s.id = o.store_id
    where o.id = ${wallet.orderId}`);
  const excluded = new Set<string>([wallet.storePaymentAddress.toLowerCase()]);
  if (store?.payment_address) excluded.add(store.payment_address.toLowerCase());
  for (const row of rows) if (row.ours) excluded.add(row.from.toLowerCase());
  return payerOf(
    rows.map((row) => ({
      from: row.from,
      value: BigInt(row.value),
      blockTimestamp: BigInt(row.block_timestamp),
    })),
    {
      expected: parseUsdc(wallet.expectedAmountUsdc),
      windowEndsAt: wallet.expiredAt?.getTime() ?? null,
      excluded,
    },
  );
}

/**
 * The signer of the x402 authorization that paid a deposit address once it settled on chain: the
 * payer known for certain (the transfer is from the signer by construction), so a refund of the
 * order is ready for that address at once. Undefined for an order paid by a plain transfer.
 */
export async function x402SignerOfWallet(
  db: Executor,
  walletId: string,
): Promise<Address | undefined> {
  const [row] = await db
    .select({ payer: x402Payments.payer })
    .from(x402Payments)
    .where(
      and(
        eq(x402Payments.walletId, walletId),
        inArray(x402Payments.status, ['settled', 'serving', 'served', 'undelivered']),
      ),
    )
    .orderBy(asc(x402Payments.createdAt))
    .limit(1);
  return row ? getAddress(row.payer) : undefined;
}
