// One settlement scenario: pay N fresh universal orders one after another and time, from the
// header of the block at which each payment reached the confirmation depth, (1) the forwarding
// transactions' block header and (2) the `order.paid` and `order.forwarded` webhooks' arrival.
import type { Database } from '@store/api/db/client';
import { payUsdc } from '@store/stack/usdc';
import { sql } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { BlockClock } from '../detection/measure.ts';
import { createBenchOrder } from '../universal-order.ts';

/** One measured payment, in milliseconds from the depth block's header. */
export interface Sample {
  forwardMined: number;
  paidWebhook: number;
  forwardedWebhook: number;
}

/** A receiver of the benchmark's webhooks: arrival time per order and event type. */
export function benchReceiver() {
  const arrivals = new Map<string, number>();
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (request) => {
      const at = performance.now();
      const body = JSON.parse(await request.text()) as { orderId: string; type: string };
      arrivals.set(`${body.orderId} ${body.type}`, at);
      return new Response('ok');
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hooks`,
    arrivedAt: (orderId: string, type: string) => arrivals.get(`${orderId} ${type}`),
    stop: () => server.stop(true),
  };
}

/** What a scenario needs. */
export interface Target {
  apiUrl: string;
  db: Database;
  env: { RPC_URL: string; USDC_ADDRESS?: string };
  clock: BlockClock;
  confirmations: number;
  receiver: ReturnType<typeof benchReceiver>;
}

/** Polls until `get` returns a value (every 5 ms, 30 s at most). */
async function poll<T>(get: () => Promise<T | undefined> | T | undefined, what: string) {
  const deadline = performance.now() + 30_000;
  for (;;) {
    const value = await get();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`no ${what} within 30 s`);
    await Bun.sleep(5);
  }
}

/** The last block of the order's forwarding transactions, once its round is recorded. */
async function forwardBlock(db: Database, orderId: string): Promise<bigint | undefined> {
  const [row] = await db.execute<{ block: string | null }>(sql`
    select max(f.block_number)::text as block from forwarding_transfers f
    join payment_wallets w on w.id = f.wallet_id
    where w.order_id = ${orderId} and f.status = 'confirmed'`);
  return row?.block ? BigInt(row.block) : undefined;
}

/** Pays `count` orders of 1.25 USDC, one at a time, from test accounts 1..9 in turn. */
export async function runScenario(target: Target, count: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < count; i++) {
    const { orderId, address } = await createBenchOrder(target.apiUrl, {
      storePaymentAddress: privateKeyToAccount(generatePrivateKey()).address,
      webhookUrl: target.receiver.url,
    });
    await Bun.sleep(Math.random() * 200);
    const paid = await payUsdc(target.env, 1 + (i % 9), address, 1_250_000n);
    const depthBlock = paid.blockNumber + BigInt(target.confirmations - 1);
    const forwardedAt = await poll(
      () => target.receiver.arrivedAt(orderId, 'order.forwarded'),
      `order.forwarded of ${orderId}`,
    );
    const paidAt = await poll(() => target.receiver.arrivedAt(orderId, 'order.paid'), 'order.paid');
    const block = await poll(() => forwardBlock(target.db, orderId), 'forwarding block');
    const depthAt = await poll(() => target.clock.arrivedAt(depthBlock), 'depth block header');
    const minedAt = await poll(() => target.clock.arrivedAt(block), 'forwarding block header');
    samples.push({
      forwardMined: minedAt - depthAt,
      paidWebhook: paidAt - depthAt,
      forwardedWebhook: forwardedAt - depthAt,
    });
  }
  return samples;
}
