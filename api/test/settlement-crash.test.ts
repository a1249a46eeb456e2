// Crash and restart at each step of a forwarding round: the worker runs as its own process and
// kills itself with SIGKILL (as `kill -9`) at the step FORWARDING_CRASH_AT names; a fresh worker
// then resumes from Postgres and the chain alone. Balances must be exact and every share must
// have left the deposit address exactly once.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { splitFee } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { type Service, startService } from '@store/stack/process';
import { payUsdc } from '@store/stack/usdc';
import { asc, eq } from 'drizzle-orm';
import { type Address, createPublicClient, http, parseAbiItem, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { type App, createApp } from '../src/app.ts';
import { loadApiConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/client.ts';
import { forwardingTransfers } from '../src/db/schema.ts';
import { CRASH_STEPS } from '../src/payments/crash-point.ts';
import { walletForwarded } from '../src/payments/forwarded.ts';
import { apiClient } from './support/client.ts';
import { walletOf } from './support/payments.ts';
import { balancesOf, ledgerBreaches, waitUntil, webhookReceiver } from './support/settlement.ts';
import { startTestStack, type TestStack } from './support/stack.ts';

let stack: TestStack;
let database: ReturnType<typeof createDatabase>;
let app: App;
const receiver = webhookReceiver();
const logs: string[] = [];
const running: Service[] = [];
const transferEvent = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

/** Starts `api/src/worker.ts` as its own process with the stack's environment. */
function startWorker(extra: Record<string, string> = {}): Service {
  const worker = startService(
    'worker',
    process.execPath,
    [new URL('../src/worker.ts', import.meta.url).pathname],
    {
      env: { ...stack.env, CONFIRMATIONS: '2', ...extra },
      log: (line) => logs.push(line),
    },
  );
  running.push(worker);
  return worker;
}

async function universalOrder(payout: Address) {
  const { status, body } = await apiClient(app).post('/api/universal-orders', {
    storeName: 'Crash Shop',
    storePaymentAddress: payout,
    webhookUrl: receiver.url,
    ...customer,
    items: [{ productId: 'universal-c', title: 'Item', priceUsdc: '7.77', quantity: 1 }],
    subtotalUsdc: '7.77',
    shippingUsdc: '0.00',
    totalUsdc: '7.77',
    paymentChain: 'base',
  });
  if (status !== 201) throw new Error(`order: ${JSON.stringify(body)}`);
  return { orderId: body.order.id as string, address: body.paymentWallet.address as Address };
}

/** USDC transfers out of `from` on the chain. */
async function transfersOutOf(from: Address) {
  const client = createPublicClient({ chain: foundry, transport: http(stack.env.RPC_URL) });
  return client.getLogs({
    address: stack.env.USDC_ADDRESS as Address,
    event: transferEvent,
    args: { from },
    fromBlock: 0n,
  });
}

beforeAll(async () => {
  stack = await startTestStack({ blockTime: 0.2 });
  database = createDatabase(stack.env.DATABASE_URL, { max: 4 });
  const config = loadApiConfig({ ...stack.env, CONFIRMATIONS: '2' });
  app = createApp({
    db: database.db,
    config,
    chain: createPublicClient({ transport: http(config.chain.rpcUrl) }),
  });
}, 90_000);

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  receiver.stop();
  await database?.close();
  await stack?.stop();
}, 30_000);

describe('the worker killed during forwarding', () => {
  for (const step of CRASH_STEPS) {
    test(`${step}: a restarted worker finishes, and nothing is paid twice`, async () => {
      const payout = privateKeyToAccount(generatePrivateKey()).address;
      const { orderId, address } = await universalOrder(payout);
      const doomed = startWorker({ FORWARDING_CRASH_AT: step });
      await payUsdc(stack.env, 7, address, parseUnits('7.77', 6));
      const exit = await Promise.race([doomed.exited, Bun.sleep(30_000).then(() => 'alive')]);
      expect(exit).not.toBe('alive');

      const wallet = await walletOf(database.db, orderId);
      const legs = await database.db
        .select()
        .from(forwardingTransfers)
        .where(eq(forwardingTransfers.walletId, wallet.id))
        .orderBy(asc(forwardingTransfers.leg));
      expect(legs.map((l) => l.leg)).toEqual(['fee', 'merchant']);
      expect(wallet.forwardedAmountUsdc).toBe('0.000000');
      if (step === 'before-signing') expect(legs.every((l) => l.signature === null)).toBe(true);
      else expect(legs.every((l) => l.status === 'sent' && l.txHash)).toBe(true);

      const worker = startWorker();
      await waitUntil(async () => {
        const w = await walletOf(database.db, orderId);
        return (await walletForwarded(database.db, w)) && w.forwardingStatus === 'completed';
      }, 'the restarted worker to forward');
      await waitUntil(
        () =>
          receiver.ofType('order.forwarded').some((r) => JSON.parse(r.body).orderId === orderId),
        'order.forwarded',
      );
      await worker.stop();

      const { merchant, fee } = splitFee(parseUnits('7.77', 6));
      expect((await balancesOf(stack.env, payout)).usdc).toBe(merchant);
      expect(await balancesOf(stack.env, address)).toEqual({ usdc: 0n, eth: 0n });
      const out = await transfersOutOf(address);
      expect(out.map((log) => log.args.value).sort()).toEqual([fee, merchant].sort());
      const forwardedEvents = receiver
        .ofType('order.forwarded')
        .filter((r) => JSON.parse(r.body).orderId === orderId);
      expect(forwardedEvents).toHaveLength(1);
    }, 90_000);
  }

  test('the ledger holds after every crash', async () => {
    expect(await ledgerBreaches(database.db)).toEqual([]);
  });
});
