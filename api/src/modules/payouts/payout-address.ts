// Payout addresses that could never receive a forwarded payment, refused where they are set: the
// zero address (also refused by the shared schemas), the USDC contract itself, the platform's own
// accounts, and any deposit address we made (money would loop back into a deposit address).
import { PAYOUT_ADDRESS_MESSAGES as M } from '@store/shared';
import { sql } from 'drizzle-orm';
import type { ApiConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { paymentWallets } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';

/** Throws 422 with the reason when `address` must not receive payouts; nothing for null or ''. */
export async function refuseUnpayableAddress(
  db: Database,
  config: Pick<ApiConfig, 'chain' | 'treasuryAddress' | 'relayerAddress'>,
  address: string | null | undefined,
): Promise<void> {
  if (!address) return;
  const lower = address.toLowerCase();
  const refuse = (message: string) => {
    throw new AppError('validation_failed', message);
  };
  if (/^0x0{40}$/.test(lower)) refuse(M.zero);
  if (lower === config.chain.usdc.toLowerCase()) refuse(M.token);
  if (
    lower === config.treasuryAddress.toLowerCase() ||
    lower === config.relayerAddress?.toLowerCase()
  )
    refuse(M.platform);
  const [deposit] = await db
    .select({ id: paymentWallets.id })
    .from(paymentWallets)
    .where(sql`lower(${paymentWallets.walletAddress}) = ${lower}`)
    .limit(1);
  if (deposit) refuse(M.deposit);
}
