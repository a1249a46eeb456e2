// The reorg-reversal tests' stack and helpers: the API with one worker at its default full
// reconciliation period (60 s, so that a reorg must be seen without it), a webhook receiver,
// `anvil_reorg` from a block, and a wait until the reversal reads everywhere.
// Note: one reorg per test file: after `anvil_reorg` the local indexer sometimes goes on indexing
// the new chain's blocks without their logs, and a payment made after it is then never seen.
import { afterAll } from 'bun:test';
import { asc, eq } from 'drizzle-orm';
import { createPublicClient, type Hash, type Hex, http, parseUnits } from 'viem';
import { foundry } from 'viem/chains';
import { createApp } from '../../src/app.ts';
import { loadWorkerConfig } from '../../src/config.ts';
import { forwardingTransfers } from '../../src/db/schema.ts';
import type { Health } from '../../src/modules/health/service.ts';
import { startSettlement } from '../../src/worker/settlement-loops.ts';
import { useChainApi } from './chain-api.ts';
import { apiClient } from './client.ts';
import { paymentStatus } from './payments.ts';
import { waitUntil, webhookReceiver } from './settlement.ts';

// Note: a reorg after the legs reached the depth goes about twice the depth deep, within the 30
// blocks the indexer keeps unfinalized on the local chain.
export const CONFIRMATIONS = 10;
/** What the issue asks: the truth within one block plus the detection pass, well inside 2 s. */
export const SEEN_WITHIN_MS = 2000;
export const usdc = (amount: string) => parseUnits(amount, 6);

/** A transaction for `anvil_reorg` (a request anvil signs, or a signed one) and its block offset. */
export type ReorgTx = [Hex | Record<string, string>, number];

/** Registers the stack, the worker and the webhook receiver of one reorg test file. */
export function useReorgReversal(confirmations = CONFIRMATIONS) {
  const workerLogs: string[] = [];
  const t = useChainApi({
    confirmations,
    poolSize: 6,
    worker: ({ stack, database }) =>
      startSettlement(
        loadWorkerConfig({
          ...stack.env,
          CONFIRMATIONS: String(confirmations),
          FORWARDING_RETRY_BASE_MS: '100',
          WEBHOOK_RETRY_BASE_MS: '100',
        }),
        database.db,
        { log: (line) => workerLogs.push(`${new Date().toISOString()} ${line}`) },
      ),
  });
  const hooks = webhookReceiver();
  afterAll(() => {
    hooks.stop();
    if (process.env.SHOW_WORKER_LOGS) console.log(workerLogs.join('\n'));
  });

  const rpc = () => createPublicClient({ chain: foundry, transport: http(t.stack.env.RPC_URL) });

  const health = async (): Promise<Health> => {
    const app = createApp({ db: t.database.db, config: t.config, chain: rpc() });
    return (await apiClient(app).get('/api/health')).body as Health;
  };

  /**
   * Replaces every block from `first` on (anvil's `anvil_reorg`, with `txs` in the new blocks)
   * until `gone` is no longer on the chain; returns the moment the new chain was in place.
   * Note: blocks keep coming while the head is read, so one reorg may fall a block short: it is
   * asked again from the new head.
   */
  const reorgFrom = async (
    first: bigint,
    gone: Hash,
    txs: (depth: number) => ReorgTx[] = () => [],
  ): Promise<number> => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const head = await rpc().getBlockNumber({ cacheTime: 0 });
      const depth = Number(head - first + 1n);
      await rpc().request({ method: 'anvil_reorg' as never, params: [depth, txs(depth)] as never });
      const at = performance.now();
      const still = await rpc()
        .getTransactionReceipt({ hash: gone })
        .catch(() => null);
      if (!still) {
        workerLogs.push(`${new Date().toISOString()} (test) reorged`);
        return at;
      }
    }
    throw new Error(`${gone} is still on the chain after the reorg`);
  };

  const legsOf = (walletId: string) =>
    t.database.db
      .select()
      .from(forwardingTransfers)
      .where(eq(forwardingTransfers.walletId, walletId))
      .orderBy(asc(forwardingTransfers.round), asc(forwardingTransfers.leg));

  /**
   * Polls until the status API, the order, the webhook and health all say `reversed`; returns
   * health's answer then and the time since `since`.
   */
  const waitForReversedEverywhere = (
    orderId: string,
    since: number,
    healthReads: (body: Health) => boolean = (body) => body.settlement.reversals.open > 0,
  ) => {
    const noted = new Set<string>();
    const note = (what: string) => {
      if (noted.has(what)) return;
      noted.add(what);
      workerLogs.push(`${new Date().toISOString()} (test) ${what} reads reversed`);
    };
    return waitUntil(
      async () => {
        const status = await paymentStatus(t.shopper, orderId);
        if (status.status !== 'reversed') return false;
        note('status API');
        const order = await t.shopper.get(`/api/orders/${orderId}`);
        if (order.body.status !== 'reversed') return false;
        note('order');
        const webhook = hooks
          .ofType('order.payment_reversed')
          .find((r) => r.body.includes(orderId));
        if (!webhook) return false;
        note('webhook');
        const body = await health();
        if (!healthReads(body)) return false;
        return { health: body, ms: performance.now() - since };
      },
      'the reversal seen everywhere',
      15_000,
    ).catch((error) => {
      console.log(workerLogs.slice(-30).join('\n'));
      throw error;
    });
  };

  return { t, hooks, rpc, health, reorgFrom, legsOf, waitForReversedEverywhere };
}
