// The worker and the API as the processes they are, through a crash of Postgres: the database
// server is killed (SIGKILL to its process group, as a crash or an OOM kill does) and started
// again on the same data and port. Neither process may exit; once the database is back, the API
// takes an order again and the worker forwards its payment.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { splitFee } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { freePort } from '@store/stack/ports';
import { type EmbeddedPostgresServer, startEmbeddedPostgres } from '@store/stack/postgres';
import { type Service, startService } from '@store/stack/process';
import { serviceEnvironments } from '@store/stack/stack';
import { payUsdc } from '@store/stack/usdc';
import { type Address, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createDatabase } from '../src/db/client.ts';
import { waitForForwarded } from './support/payments.ts';
import { balancesOf, waitUntil } from './support/settlement.ts';
import { startTestStack, type TestStack } from './support/stack.ts';

let stack: TestStack;
let apiUrl: string;
let restarted: EmbeddedPostgresServer | undefined;
const logs: Record<'api' | 'worker', string[]> = { api: [], worker: [] };
const processes: Partial<Record<'api' | 'worker', Service>> = {};

beforeAll(async () => {
  stack = await startTestStack({ blockTime: 0.2 });
  const env = serviceEnvironments(stack);
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  processes.api = startService('api', process.execPath, [entry('index.ts')], {
    env: { ...env.api, PORT: String(port), CONFIRMATIONS: '2' },
    log: (line) => logs.api.push(line),
  });
  processes.worker = startService('worker', process.execPath, [entry('worker.ts')], {
    env: { ...env.worker, CONFIRMATIONS: '2', FORWARDING_RETRY_BASE_MS: '100' },
    log: (line) => logs.worker.push(line),
  });
  await waitUntil(
    () =>
      fetch(`${apiUrl}/api/health`).then(
        (r) => r.ok,
        () => false,
      ),
    'the API',
    30_000,
  );
  await waitUntil(
    () => logs.worker.some((l) => l.includes('ready on chain')),
    'the worker',
    30_000,
  );
}, 120_000);

afterAll(async () => {
  await processes.worker?.stop();
  await processes.api?.stop();
  await restarted?.stop();
  await stack?.stop();
  if (process.env.SHOW_PROCESS_LOGS) console.log([...logs.api, ...logs.worker].join('\n'));
}, 120_000);

function entry(file: string) {
  return new URL(`../src/${file}`, import.meta.url).pathname;
}

/** A universal order through the API process: its id and deposit address. */
async function placeOrder(payout: Address) {
  const response = await fetch(`${apiUrl}/api/universal-orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: apiUrl },
    body: JSON.stringify({
      storeName: 'Restart Shop',
      storePaymentAddress: payout,
      ...customer,
      items: [{ productId: 'universal-r', title: 'Item', priceUsdc: '3.00', quantity: 1 }],
      subtotalUsdc: '3.00',
      shippingUsdc: '0.00',
      totalUsdc: '3.00',
      paymentChain: 'base',
    }),
  });
  if (response.status !== 201) return undefined;
  const body = (await response.json()) as {
    order: { id: string };
    paymentWallet: { address: Address };
  };
  return { orderId: body.order.id, address: body.paymentWallet.address };
}

/** An order placed through the API process, paid, and forwarded by the worker process. */
async function payAndWaitForwarded() {
  const payout = privateKeyToAccount(generatePrivateKey()).address;
  const order = await waitUntil(() => placeOrder(payout), 'an order through the API', 30_000);
  await payUsdc(stack.env, 1, order.address, parseUnits('3.00', 6));
  const database = createDatabase(stack.databaseUrls.api, { max: 2 });
  try {
    await waitForForwarded(database.db, order.orderId, 60_000).catch((error) => {
      console.log([...logs.api.slice(-20), ...logs.worker.slice(-40)].join('\n'));
      throw error;
    });
  } finally {
    await database.close();
  }
  expect((await balancesOf(stack.env, payout)).usdc).toBe(splitFee(parseUnits('3.00', 6)).merchant);
}

describe('Postgres crashes and comes back', () => {
  test('the worker and the API keep running; an order placed afterwards is forwarded', async () => {
    const postgres = stack.embeddedPostgres;
    if (!postgres) throw new Error('the test stack runs no embedded Postgres');
    // An order forwarded first: the worker holds its claim connection and its other connections.
    await payAndWaitForwarded();
    // Both processes are at work (the worker's loops query every 200 ms) when it dies.
    process.kill(-postgres.pid, 'SIGKILL');
    await Bun.sleep(3000);
    expect(processes.worker?.pid).toBeDefined();
    restarted = await startEmbeddedPostgres({
      dataDir: postgres.dataDir,
      port: postgres.port,
      ephemeral: true,
    });
    // The API takes orders again once it has reconnected.
    const payout = privateKeyToAccount(generatePrivateKey()).address;
    const order = await waitUntil(() => placeOrder(payout), 'an order through the API', 30_000);
    await payUsdc(stack.env, 1, order.address, parseUnits('3.00', 6));
    const database = createDatabase(stack.databaseUrls.api, { max: 2 });
    try {
      await waitForForwarded(database.db, order.orderId, 60_000).catch((error) => {
        console.log([...logs.api.slice(-20), ...logs.worker.slice(-40)].join('\n'));
        throw error;
      });
    } finally {
      await database.close();
    }
    expect((await balancesOf(stack.env, payout)).usdc).toBe(
      splitFee(parseUnits('3.00', 6)).merchant,
    );
    // Neither process exited on the way.
    const exited = await Promise.race([
      Promise.any([processes.api?.exited, processes.worker?.exited]).then(
        (code) => `exited ${code}`,
      ),
      Bun.sleep(100).then(() => 'running'),
    ]);
    expect(exited).toBe('running');
  }, 180_000);
});
