// A worker SIGKILLed during a refund from a deposit address: the worker runs as its own process and
// kills itself (as `kill -9`) at the refund step FORWARDING_CRASH_AT names; a fresh worker resumes
// from Postgres and the chain alone. The payer must get the excess exactly once, and the chain
// ledger (received = merchant + treasury + refunded, per deposit address) must hold.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { splitFee } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { chainLedger } from '@store/stack/chain-ledger';
import { type Service, startService } from '@store/stack/process';
import { localAccount, payUsdc } from '@store/stack/usdc';
import { eq } from 'drizzle-orm';
import { type Address, createPublicClient, getAddress, http, parseAbiItem, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { type App, createApp } from '../src/app.ts';
import { loadApiConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/client.ts';
import { forwardingTransfers, refunds } from '../src/db/schema.ts';
import { REFUND_CRASH_STEPS } from '../src/payments/crash-point.ts';
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
    items: [{ productId: 'universal-r', title: 'Item', priceUsdc: '7.77', quantity: 1 }],
    subtotalUsdc: '7.77',
    shippingUsdc: '0.00',
    totalUsdc: '7.77',
    paymentChain: 'base',
  });
  if (status !== 201) throw new Error(`order: ${JSON.stringify(body)}`);
  return {
    orderId: body.order.id as string,
    buyerToken: body.order.reviewToken as string,
    address: body.paymentWallet.address as Address,
  };
}

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

describe('the worker killed during a refund from a deposit address', () => {
  for (const step of REFUND_CRASH_STEPS) {
    test(`${step}: a restarted worker finishes, and the payer is refunded once`, async () => {
      const payout = privateKeyToAccount(generatePrivateKey()).address;
      // Note: the refund goes back to the address that paid (the order pages' claim link can
      // confirm no other; an unsigned universal link mails no claim link).
      const payer = getAddress(localAccount(7).address);
      const { orderId, buyerToken, address } = await universalOrder(payout);
      const doomed = startWorker({ FORWARDING_CRASH_AT: step });
      await payUsdc(stack.env, 7, address, parseUnits('9.00', 6));
      // The total goes to the merchant; the excess waits for the payer's claim.
      await waitUntil(async () => {
        const [row] = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
        return row !== undefined;
      }, 'the excess refund');
      const [claim] = (
        await apiClient(app).get(`/api/orders/${orderId}/refund-claims`, {
          headers: { 'x-buyer-token': buyerToken },
        })
      ).body;
      expect(claim.amount).toBe('1.230000');
      const token = claim.claimPath.replace('/refund/', '');
      const payerBefore = (await balancesOf(stack.env, payer)).usdc;
      const claimed = await apiClient(app).post(`/api/refund-claims/${token}`, { address: payer });
      expect(claimed.status).toBe(200);
      const exit = await Promise.race([doomed.exited, Bun.sleep(30_000).then(() => 'alive')]);
      expect(exit).not.toBe('alive');

      const wallet = await walletOf(database.db, orderId);
      const [leg] = await database.db
        .select()
        .from(forwardingTransfers)
        .where(eq(forwardingTransfers.walletId, wallet.id))
        .then((legs) => legs.filter((l) => l.leg === 'refund'));
      expect(leg?.value).toBe('1230000');
      if (step === 'refund-before-signing') expect(leg?.signature).toBeNull();
      else expect(leg?.status === 'sent' && leg.txHash).toBeTruthy();
      const [sending] = await database.db
        .select()
        .from(refunds)
        .where(eq(refunds.orderId, orderId));
      expect(sending?.status).toBe('sending');

      const worker = startWorker();
      const done = await waitUntil(async () => {
        const [row] = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
        return row?.status === 'refunded' && row;
      }, 'the restarted worker to refund');
      await waitUntil(
        () => receiver.ofType('order.refunded').some((r) => JSON.parse(r.body).orderId === orderId),
        'order.refunded',
      );
      // Note: the merchant's round may still be recording its confirmation: stop the worker only
      // once everything that left the address is recorded (the ledger compares it with the chain).
      await waitUntil(async () => {
        const wallet = await walletOf(database.db, orderId);
        return wallet.forwardedAmountUsdc === wallet.receivedAmountUsdc && wallet;
      }, 'everything forwarded or refunded recorded');
      await worker.stop();

      const { merchant } = splitFee(parseUnits('7.77', 6));
      expect((await balancesOf(stack.env, payout)).usdc).toBe(merchant);
      expect((await balancesOf(stack.env, payer)).usdc - payerBefore).toBe(parseUnits('1.23', 6));
      expect(await balancesOf(stack.env, address)).toEqual({ usdc: 0n, eth: 0n });
      const toPayer = (await transfersOutOf(address)).filter(
        (log) => log.args.to?.toLowerCase() === payer.toLowerCase(),
      );
      expect(toPayer).toHaveLength(1);
      expect(toPayer[0]?.transactionHash).toBe(done.txHash as `0x${string}`);
      const events = receiver
        .ofType('order.refunded')
        .filter((r) => JSON.parse(r.body).orderId === orderId);
      expect(events).toHaveLength(1);
    }, 90_000);
  }

  test('the ledger holds after every crash, in the database and on the chain', async () => {
    expect(await ledgerBreaches(database.db)).toEqual([]);
    const ledger = await chainLedger(stack.env, database.db);
    expect(ledger.breaches).toEqual([]);
    expect(ledger.authorizationsUsedTwice).toEqual([]);
    expect(ledger.wallets.reduce((sum, w) => sum + w.toPayer, 0n)).toBe(
      parseUnits('1.23', 6) * BigInt(REFUND_CRASH_STEPS.length),
    );
  });
});
