// Settlement test helpers: a local webhook receiver, balances on the chain, polling, and the
// ledger invariant (every unit received at a deposit address went to the merchant or the fee).
import { formatUsdcFull, parseUsdc } from '@store/shared';
import { sql } from 'drizzle-orm';
import { type Address, createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { usdcAbi } from '../../src/chain/usdc-abi.ts';
import type { Database } from '../../src/db/client.ts';

/** One request the receiver got. */
export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** A Bun server on 127.0.0.1 that records requests and answers with `respond` (200 by default). */
export function webhookReceiver(
  respond: (count: number) => Response | Promise<Response> = () => new Response('ok'),
) {
  const received: ReceivedWebhook[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (request) => {
      const body = await request.text();
      received.push({ headers: Object.fromEntries(request.headers), body, at: performance.now() });
      return respond(received.length);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hooks`,
    received,
    /** Requests whose payload has this event type. */
    ofType: (type: string) => received.filter((r) => JSON.parse(r.body).type === type),
    stop: () => server.stop(true),
  };
}

/** Polls `check` every 25 ms until it returns a value other than undefined or false. */
export async function waitUntil<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

/** USDC (base units) and ETH (wei) of `address` on the local chain. */
export async function balancesOf(
  env: { RPC_URL: string; USDC_ADDRESS?: string },
  address: Address,
) {
  const client = createPublicClient({ chain: foundry, transport: http(env.RPC_URL) });
  const [usdc, eth] = await Promise.all([
    client.readContract({
      address: env.USDC_ADDRESS as Address,
      abi: usdcAbi,
      functionName: 'balanceOf',
      args: [address],
    }),
    client.getBalance({ address }),
  ]);
  return { usdc, eth };
}

/**
 * The ledger: for every wallet with confirmed rounds, received at depth = merchant + fee + refunds
 * of its confirmed legs + what is held for the payer (refunds not sent yet), and the wallet's
 * forwarded amount is its confirmed legs. Returns the wallets that break it.
 */
export async function ledgerBreaches(db: Database): Promise<string[]> {
  const rows = await db.execute<{
    id: string;
    received: string;
    forwarded: string;
    legs: string;
    held: string;
  }>(sql`
    select w.id, w.received_amount_usdc::text as received, w.forwarded_amount_usdc::text as forwarded,
      coalesce((select sum(f.value) from forwarding_transfers f where f.wallet_id = w.id
        and f.leg in ('merchant', 'fee', 'refund') and f.status = 'confirmed'), 0)::text as legs,
      coalesce((select sum(r.amount) from refunds r where r.wallet_id = w.id and r.source = 'deposit'
        and r.status in ('awaiting_address', 'ready', 'sending', 'failed')), 0)::text as held
    from payment_wallets w
    where w.forwarding_status = 'completed'`);
  return rows
    .filter((r) => {
      const legs = BigInt(r.legs);
      return (
        parseUsdc(r.received) !== legs + BigInt(r.held) ||
        parseUsdc(r.forwarded) !== parseUsdc(formatUsdcFull(legs))
      );
    })
    .map(
      (r) =>
        `${r.id}: received ${r.received}, forwarded ${r.forwarded}, legs ${r.legs}, held ${r.held}`,
    );
}
