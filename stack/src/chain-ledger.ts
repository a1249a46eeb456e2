// The ledger as the CHAIN tells it, not the database: USDC `Transfer` and `AuthorizationUsed` logs
// of the token, read straight from the node. For every deposit address: what arrived equals what
// left plus what it still holds; what left went to its payout address and the treasury with the
// merchant never under 98% of what it and the treasury got, refunds only to an address a refund
// of that wallet names (the payer's); every EIP-3009 authorization was used once; and the database's
// forwarded amount is what the chain says left.
import { usdcAbi } from '@store/api/chain/usdc-abi';
import type { Database } from '@store/api/db/client';
import { splitFee } from '@store/shared';
import { sql } from 'drizzle-orm';
import { type Address, createPublicClient, http, parseAbiItem } from 'viem';
import { foundry } from 'viem/chains';

const transferEvent = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);
const authorizationUsed = parseAbiItem(
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
);

/** Blocks read in one `getLogs` call. */
const LOG_CHUNK = 200n;

/** One deposit address as the chain and the database see it. */
export interface DepositLedger {
  address: string;
  received: bigint;
  toMerchant: bigint;
  toTreasury: bigint;
  /** Refunds: to an address a refund of this wallet names. */
  toPayer: bigint;
  toOthers: bigint;
  balance: bigint;
  forwardedInDatabase: bigint;
}

/** Reads the logs of every deposit address in `payment_wallets` and checks the invariants. */
export async function chainLedger(
  env: { RPC_URL: string; USDC_ADDRESS?: string; TREASURY_ADDRESS?: string },
  db: Database,
  /** The block the chain is read at (its logs up to it, balances at it); the head by default. */
  options: { atBlock?: bigint } = {},
): Promise<{
  wallets: DepositLedger[];
  breaches: string[];
  authorizationsUsedTwice: string[];
  /** Transfers out of deposit addresses. */
  transfersOut: number;
}> {
  const client = createPublicClient({ chain: foundry, transport: http(env.RPC_URL) });
  const token = env.USDC_ADDRESS as Address;
  const treasury = (env.TREASURY_ADDRESS ?? '').toLowerCase();
  const wallets = await db.execute<{
    address: string;
    payout: string;
    forwarded: string;
    payers: string[] | null;
  }>(sql`
    select lower(w.wallet_address) as address, lower(w.store_payment_address) as payout,
      (w.forwarded_amount_usdc * 1000000)::bigint::text as forwarded,
      (select array_agg(distinct lower(r.to_address)) from refunds r
        where r.wallet_id = w.id and r.to_address is not null) as payers
    from payment_wallets w`);
  // Note: in chunks of blocks: a busy chain's logs outgrow one HTTP answer (viem caps it at 10 MB).
  // Note: balances are read at this block too. Read at the head of the moment, a transfer out
  // mined after the logs were read showed as money gone with no transfer (a worker still
  // forwarding a backlog: hundreds of such "breaches" at the end of a 60 s run at 50/s).
  const head = options.atBlock ?? (await client.getBlockNumber({ cacheTime: 0 }));
  const logs: Awaited<ReturnType<typeof transferLogs>> = [];
  const used: Awaited<ReturnType<typeof usedLogs>> = [];
  const transferLogs = (fromBlock: bigint, toBlock: bigint) =>
    client.getLogs({ address: token, event: transferEvent, fromBlock, toBlock });
  const usedLogs = (fromBlock: bigint, toBlock: bigint) =>
    client.getLogs({ address: token, event: authorizationUsed, fromBlock, toBlock });
  for (let from = 0n; from <= head; from += LOG_CHUNK) {
    const to = from + LOG_CHUNK - 1n < head ? from + LOG_CHUNK - 1n : head;
    logs.push(...(await transferLogs(from, to)));
    used.push(...(await usedLogs(from, to)));
  }
  // Note: by address, so each wallet reads only its own transfers.
  const byAddress = new Map<string, typeof logs>();
  for (const log of logs) {
    for (const side of [log.args.from?.toLowerCase(), log.args.to?.toLowerCase()]) {
      if (!side) continue;
      const list = byAddress.get(side);
      if (list) list.push(log);
      else byAddress.set(side, [log]);
    }
  }
  const counts = new Map<string, number>();
  for (const log of used) {
    const key = `${log.args.authorizer?.toLowerCase()}:${log.args.nonce}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const breaches: string[] = [];
  const result: DepositLedger[] = [];
  let transfersOut = 0;
  for (const wallet of wallets) {
    const row: DepositLedger = {
      address: wallet.address,
      received: 0n,
      toMerchant: 0n,
      toTreasury: 0n,
      toPayer: 0n,
      toOthers: 0n,
      balance: 0n,
      forwardedInDatabase: BigInt(wallet.forwarded),
    };
    for (const log of new Set(byAddress.get(wallet.address) ?? [])) {
      const from = log.args.from?.toLowerCase();
      const to = log.args.to?.toLowerCase();
      const value = log.args.value ?? 0n;
      if (to === wallet.address) row.received += value;
      if (from !== wallet.address) continue;
      transfersOut += 1;
      if (to === wallet.payout) row.toMerchant += value;
      else if (to === treasury) row.toTreasury += value;
      else if (to && wallet.payers?.includes(to)) row.toPayer += value;
      else row.toOthers += value;
    }
    row.balance = await client.readContract({
      address: token,
      abi: usdcAbi,
      functionName: 'balanceOf',
      args: [wallet.address as Address],
      blockNumber: head,
    });
    const out = row.toMerchant + row.toTreasury + row.toPayer + row.toOthers;
    const paidOut = row.toMerchant + row.toTreasury;
    if (row.received !== out + row.balance)
      breaches.push(
        `${row.address}: received ${row.received} ≠ out ${out} + balance ${row.balance}`,
      );
    if (row.toOthers !== 0n) breaches.push(`${row.address}: ${row.toOthers} went elsewhere`);
    if (paidOut > 0n && row.toMerchant < splitFee(paidOut).merchant)
      breaches.push(`${row.address}: merchant got ${row.toMerchant} of ${paidOut} (under 98%)`);
    if (row.forwardedInDatabase !== out)
      breaches.push(
        `${row.address}: database says ${row.forwardedInDatabase} forwarded, chain ${out}`,
      );
    result.push(row);
  }
  const twice = [...counts].filter(([, n]) => n > 1).map(([key]) => key);
  return { wallets: result, breaches, authorizationsUsedTwice: twice, transfersOut };
}
