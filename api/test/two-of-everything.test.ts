// Two of everything (issue 20): two API processes and two workers on one Postgres, with other
// USDC traffic in every block. Orders are created through both APIs and paid at once; each payment
// must be detected once, forwarded once on the chain (fee and merchant legs, nothing more out of
// the deposit address) and each webhook delivered once, as the receiver and the chain tell.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { splitFee } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { prepareSenders, startBackground } from '@store/stack/background-traffic';
import { freePort } from '@store/stack/ports';
import { type Service, startService } from '@store/stack/process';
import { serviceEnvironments } from '@store/stack/stack';
import { payUsdc } from '@store/stack/usdc';
import { and, eq, sql } from 'drizzle-orm';
import { type Address, createPublicClient, http, parseAbiItem, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { createDatabase } from '../src/db/client.ts';
import { forwardingTransfers, paymentEvents, webhookDeliveries } from '../src/db/schema.ts';
import { walletForwarded } from '../src/payments/forwarded.ts';
import { walletOf } from './support/payments.ts';
import { balancesOf, ledgerBreaches, waitUntil, webhookReceiver } from './support/settlement.ts';
import { startTestStack, type TestStack } from './support/stack.ts';

// Note: the short run of `.ci/run`; `bun bench/scale/run.ts` runs the same test for longer.
const PAYMENTS = Number(process.env.SCALE_PAYMENTS ?? 6);
const BACKGROUND_PER_BLOCK = Number(process.env.SCALE_BACKGROUND ?? 5);
const PRICE = '3.33';
let stack: TestStack;
let database: ReturnType<typeof createDatabase>;
const receiver = webhookReceiver();
const logs: string[] = [];
const running: Service[] = [];
const apis: string[] = [];
const transferEvent = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

/** Starts an entry point of the API package as its own process, with its role's environment. */
function start(name: string, file: 'index.ts' | 'worker.ts', env: Record<string, string>) {
  const service = startService(
    name,
    process.execPath,
    [new URL(`../src/${file}`, import.meta.url).pathname],
    { env, log: (line) => logs.push(`${name}: ${line}`) },
  );
  running.push(service);
  return service;
}

async function startApi(name: string, env: Record<string, string>) {
  const port = await freePort();
  start(name, 'index.ts', { ...env, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    () =>
      fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      ),
    `${name} to answer`,
    60_000,
  );
  return url;
}

async function universalOrder(apiUrl: string, payout: Address) {
  const response = await fetch(`${apiUrl}/api/universal-orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      storeName: 'Twin Shop',
      storePaymentAddress: payout,
      webhookUrl: receiver.url,
      ...customer,
      items: [{ productId: 'twin', title: 'Item', priceUsdc: PRICE, quantity: 1 }],
      subtotalUsdc: PRICE,
      shippingUsdc: '0.00',
      totalUsdc: PRICE,
      paymentChain: 'base',
    }),
  });
  const body = (await response.json()) as {
    order: { id: string };
    paymentWallet: { address: Address };
  };
  if (response.status !== 201) throw new Error(`order: ${JSON.stringify(body)}`);
  return { orderId: body.order.id, address: body.paymentWallet.address, payout };
}

beforeAll(async () => {
  stack = await startTestStack({ blockTime: 0.2 });
  database = createDatabase(stack.env.DATABASE_URL, { max: 2 });
  const env = serviceEnvironments(stack);
  // Note: one client (this test) creates every order; the long run makes more than the default
  // 30 a minute.
  const confirmations = {
    CONFIRMATIONS: '2',
    RATE_LIMIT_ORDERS_PER_MINUTE: String(Math.max(30, PAYMENTS * 2)),
    RATE_LIMIT_WALLETS_PER_MINUTE: String(Math.max(30, PAYMENTS * 2)),
  };
  apis.push(
    ...(await Promise.all([
      startApi('api-1', { ...env.api, ...confirmations }),
      startApi('api-2', { ...env.api, ...confirmations }),
    ])),
  );
  start('worker-1', 'worker.ts', { ...env.worker, ...confirmations });
  start('worker-2', 'worker.ts', { ...env.worker, ...confirmations });
  await prepareSenders(stack.env);
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  receiver.stop();
  await database?.close();
  await stack?.stop();
}, 30_000);

describe('two APIs and two workers on one Postgres', () => {
  test(
    'each payment is detected once, forwarded once and each webhook delivered once',
    async () => {
      const background = startBackground(stack.env, BACKGROUND_PER_BLOCK);
      let orders: Awaited<ReturnType<typeof universalOrder>>[] = [];
      try {
        orders = await Promise.all(
          Array.from({ length: PAYMENTS }, (_, i) =>
            universalOrder(
              apis[i % 2] as string,
              privateKeyToAccount(generatePrivateKey()).address,
            ),
          ),
        );
        // Note: test accounts 1..9 pay at once, in rounds of up to 9 (one payment each, so no two
        // share a nonce).
        for (let first = 0; first < orders.length; first += 9) {
          await Promise.all(
            orders
              .slice(first, first + 9)
              .map((o, i) => payUsdc(stack.env, i + 1, o.address, parseUnits(PRICE, 6))),
          );
        }
        for (const { orderId } of orders) {
          await waitUntil(
            async () => (await walletOf(database.db, orderId)).forwardingStatus === 'completed',
            `order ${orderId} forwarded\n${logs.slice(-20).join('\n')}`,
            60_000,
          );
          await waitUntil(
            () =>
              receiver
                .ofType('order.forwarded')
                .some((r) => JSON.parse(r.body).orderId === orderId),
            `order.forwarded of ${orderId}`,
            30_000,
          );
        }
        // Note: time for a second worker to act twice, were it going to.
        await Bun.sleep(3000);
      } finally {
        expect(await background.stop()).toBeGreaterThan(0);
      }

      const { merchant, fee } = splitFee(parseUnits(PRICE, 6));
      const client = createPublicClient({ chain: foundry, transport: http(stack.env.RPC_URL) });
      for (const { orderId, address, payout } of orders) {
        // Detected once: one transition into each state, and the wallet paid.
        const wallet = await walletOf(database.db, orderId);
        expect(await walletForwarded(database.db, wallet)).toBe(true);
        const events = await database.db
          .select({ to: paymentEvents.toStatus })
          .from(paymentEvents)
          .where(eq(paymentEvents.orderId, orderId));
        const targets = events.map((e) => e.to);
        expect(targets.length).toBeGreaterThan(0);
        expect(new Set(targets).size).toBe(targets.length);
        // Forwarded once, from the chain: exactly the fee and merchant legs left the address.
        const out = await client.getLogs({
          address: stack.env.USDC_ADDRESS as Address,
          event: transferEvent,
          args: { from: address },
          fromBlock: 0n,
        });
        expect(out.map((log) => log.args.value).sort()).toEqual([fee, merchant].sort());
        expect((await balancesOf(stack.env, payout)).usdc).toBe(merchant);
        const legs = await database.db
          .select()
          .from(forwardingTransfers)
          .where(eq(forwardingTransfers.walletId, wallet.id));
        expect(legs.map((l) => l.leg).sort()).toEqual(['fee', 'merchant']);
        // Each webhook delivered once: one request per event type at the receiver, one delivery row.
        const received = receiver.received
          .map((r) => JSON.parse(r.body) as { orderId: string; type: string })
          .filter((body) => body.orderId === orderId)
          .map((body) => body.type);
        expect(received.filter((t) => t === 'order.paid')).toHaveLength(1);
        expect(received.filter((t) => t === 'order.forwarded')).toHaveLength(1);
        expect(new Set(received).size).toBe(received.length);
        const [deliveries] = await database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(webhookDeliveries)
          .where(
            and(eq(webhookDeliveries.orderId, orderId), eq(webhookDeliveries.status, 'delivered')),
          );
        expect(deliveries?.n).toBe(received.length);
        // Both APIs answer the same status.
        for (const api of apis) {
          const status = (await (
            await fetch(`${api}/api/check-payment-status/${orderId}`)
          ).json()) as {
            paymentDetected: boolean;
          };
          expect(status.paymentDetected).toBe(true);
        }
      }
      expect(await ledgerBreaches(database.db)).toEqual([]);
    },
    150_000 + PAYMENTS * 5_000,
  );
});
