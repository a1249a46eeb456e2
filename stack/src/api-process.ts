// The real API entry point as a process of its own on a test database, for what only a process
// shows (its memory, its CPU, how it stops), and a valid order of the demo store it seeds in local
// mode, and the tests' shopper. Used by tests and by bench/.
import { join, resolve } from 'node:path';
import { type ShippingAddress, shippingFor, storeCheckoutTotals } from '@store/shared';
import type { Subprocess } from 'bun';
import { TEST_XPUB } from './keys.ts';
import { freePort } from './ports.ts';

const root = resolve(import.meta.dir, '../..');

/** A started API process: its URL, and `stop()` (SIGTERM, then its exit awaited). */
export interface ApiProcess<Err extends 'inherit' | 'pipe'> {
  proc: Subprocess<'ignore', 'ignore', Err>;
  url: string;
  stop(): Promise<void>;
}

/** A chain's variables when no chain runs beside it: only /api/health and payments would call one. */
const CHAINLESS_ENV = {
  CHAIN_ID: '31337',
  RPC_URL: 'http://127.0.0.1:9',
  USDC_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  TREASURY_ADDRESS: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  RELAYER_ADDRESS: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  PAYMENT_XPUB: TEST_XPUB,
};

/** The variables that have a value (undefined removes one). */
const definedEnv = (env: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );

/** Starts `api/src/index.ts` on `databaseUrl` and waits until it answers HTTP. */
export async function startApiProcess<Err extends 'inherit' | 'pipe' = 'inherit'>(
  databaseUrl: string,
  options: {
    /** Local mode seeds the demo merchant and store (before it listens). */
    localMode: boolean;
    /** Bun's own flags before the entry point (a preload, a CPU profile). */
    bunArgs?: string[];
    stderr?: Err;
    /** The chain's and keys' variables (and any other), instead of the chain-less defaults. */
    env?: Record<string, string | undefined>;
  },
): Promise<ApiProcess<Err>> {
  const port = await freePort();
  const proc = Bun.spawn(
    [process.execPath, ...(options.bunArgs ?? []), join(root, 'api/src/index.ts')],
    {
      cwd: root,
      env: definedEnv({
        DATABASE_URL: databaseUrl,
        LOCAL_MODE: String(options.localMode),
        ...(options.env ?? CHAINLESS_ENV),
        PATH: process.env.PATH ?? '',
        PORT: String(port),
      }),
      stdout: 'ignore',
      stderr: options.stderr ?? ('inherit' as Err),
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (proc.exitCode === null) proc.kill('SIGTERM');
    await proc.exited;
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const up = await fetch(`${url}/api/auth/me`).then(
      () => true,
      () => false,
    );
    if (up) return { proc, url, stop };
    if (proc.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the API did not start on port ${port}`);
    }
    await Bun.sleep(100);
  }
}

/** A valid customer and shipping part of an order body (the tests' shopper). */
export const customer: { customerEmail: string; shippingAddress: ShippingAddress } = {
  customerEmail: 'ada@example.com',
  shippingAddress: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+1 555 0100',
    street: '1 Main St',
    city: 'Springfield',
    country: 'US',
    state: 'IL',
    zipCode: '62701',
  },
};

/** A valid one-line order of the demo store as JSON, with the totals the web client computes. */
export async function demoStoreOrder(
  apiUrl: string,
  customerEmail = 'shopper@example.com',
): Promise<{ storeId: string; body: string }> {
  const store = (await (await fetch(`${apiUrl}/api/stores/demo-store`)).json()) as {
    id: string;
    taxRateBps?: number;
  };
  const [product] = (await (
    await fetch(`${apiUrl}/api/stores/${store.id}/products?published=true`)
  ).json()) as Array<{ id: string; title: string; priceUsdc: string }>;
  if (!product) throw new Error('the demo store has no products');
  const items = [
    { productId: product.id, title: product.title, priceUsdc: product.priceUsdc, quantity: 1 },
  ];
  // Note: free shipping, which every store offers, at the store's own tax rate.
  const totals = storeCheckoutTotals(items, shippingFor('free'), store.taxRateBps ?? 0);
  return {
    storeId: store.id,
    body: JSON.stringify({
      storeId: store.id,
      customerEmail,
      shippingAddress: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: customerEmail,
        phone: '+1 555 0100',
        street: '1 Main St',
        city: 'Springfield',
        state: 'IL',
        zipCode: '62701',
      },
      items,
      subtotalUsdc: totals.subtotalUsdc,
      shippingUsdc: totals.shippingUsdc,
      totalUsdc: totals.totalUsdc,
    }),
  };
}
