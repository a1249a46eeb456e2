// One detection scenario: pay N fresh orders one after another and time each from its block's
// arrival (a newHeads subscription) to the first status answer with paymentDetected true.
import { payUsdc } from '@store/stack/usdc';
import { createPublicClient, type PublicClient, webSocket } from 'viem';
import { createBenchOrder } from '../universal-order.ts';

/** When each block header arrived, by block number (performance.now() milliseconds). */
export interface BlockClock {
  arrivedAt(block: bigint): number | undefined;
  stop(): void;
}

/** Subscribes to new heads over WebSocket and remembers when each arrived. */
export async function watchBlocks(wsUrl: string): Promise<BlockClock> {
  // Note: no reconnection, so the socket does not retry once the chain is stopped.
  const transport = webSocket(wsUrl, { reconnect: false });
  const client = createPublicClient({ transport }) as PublicClient;
  const arrivals = new Map<bigint, number>();
  const unwatch = client.watchBlockNumber({
    emitMissed: true,
    onBlockNumber: (n) => {
      if (!arrivals.has(n)) arrivals.set(n, performance.now());
    },
  });
  await Bun.sleep(500);
  return {
    arrivedAt: (n) => arrivals.get(n),
    stop: () => {
      unwatch();
      void client.transport.getRpcClient?.().then((rpc: { close(): void }) => rpc.close());
    },
  };
}

/** One measured payment. */
export interface Sample {
  /** Block mined (header seen) to paymentDetected true, in ms. */
  detectMs: number;
  /** Receipt seen by the payer to paymentDetected true, in ms (negative: detected first). */
  afterReceiptMs: number;
}

/** Everything a scenario needs: where to create orders and ask for status, and the chain. */
export interface ScenarioTarget {
  apiUrl: string;
  env: { RPC_URL: string; USDC_ADDRESS?: string };
  clock: BlockClock;
}

/** Polls the status API every `pollMs` until paymentDetected; resolves with the time seen. */
async function detectedAt(apiUrl: string, orderId: string, pollMs: number): Promise<number> {
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    const response = await fetch(`${apiUrl}/api/check-payment-status/${orderId}`);
    const body = (await response.json()) as { paymentDetected?: boolean };
    if (body.paymentDetected) return performance.now();
    await Bun.sleep(pollMs);
  }
  throw new Error(`order ${orderId} was not detected within 30 s`);
}

/** Pays `count` orders of 1.25 USDC, one at a time, from test accounts 1..9 in turn. */
export async function runScenario(target: ScenarioTarget, count: number, pollMs = 10) {
  const samples: Sample[] = [];
  for (let i = 0; i < count; i++) {
    const { orderId, address } = await createBenchOrder(target.apiUrl, {
      storePaymentAddress: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
    });
    // Note: a random offset, so that payments land at every phase of the 200 ms block.
    await Bun.sleep(Math.random() * 200);
    const detection = detectedAt(target.apiUrl, orderId, pollMs);
    const paid = await payUsdc(target.env, 1 + (i % 9), address, 1_250_000n);
    const seen = await detection;
    const mined = target.clock.arrivedAt(paid.blockNumber) ?? paid.minedAt;
    samples.push({ detectMs: seen - mined, afterReceiptMs: seen - paid.minedAt });
  }
  return samples;
}
