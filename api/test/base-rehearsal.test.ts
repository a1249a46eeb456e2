// The Base rehearsal: the product configured exactly as a deployment on Base (and Base Sepolia),
// against a local chain that looks like Base to it (`startBaseRehearsalChain`: anvil with chain id
// 8453 / 84532 at 0.2 s blocks, Circle's USDC at the real USDC address). Production settings:
// LOCAL_MODE=false, CHAIN_ID, RPC_URL, WS_URL, CONFIRMATIONS=10, no USDC_ADDRESS (the API, the
// worker and the indexer find Circle's address themselves), USDC_START_BLOCK = the token's set-up
// block, keys generated here and passed in the environment (never the local keys), the worker as
// a real process (api/src/worker.ts) with only its own variables, the indexer with no USDC address.
//
// The one deviation from production: ALLOW_PRIVATE_WEBHOOKS=true, given explicitly to the API and
// the worker, because the merchant's webhook receiver runs on http://127.0.0.1 here (production
// refuses http and private targets). Each run first asserts that an API without that variable
// (the true production setting) refuses the same URL when the merchant saves it. The merchant's
// API behind the x402 product runs on 127.0.0.1 too, reached under the same setting (and refused
// by the production API when the product is saved).
//
// On Base mainnet one deployment runs two scenarios: a store order paid by a wallet's transfer,
// and the x402 scenarios of the local stack's x402.test.ts (support/x402-scenarios.ts) with the
// 402 naming `eip155:8453` and Circle's USDC address.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { DIGITAL_PRODUCT_MESSAGES, splitFee } from '@store/shared';
import { type RehearsalChainId, startBaseRehearsalChain } from '@store/stack/base-rehearsal';
import { superviseIndexer } from '@store/stack/indexer';
import { freePort } from '@store/stack/ports';
import { localAccount } from '@store/stack/usdc';
import { Webhook } from 'standardwebhooks';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hash,
  http,
  parseUnits,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createApp } from '../src/app.ts';
import { networks } from '../src/chain/networks.ts';
import { usdcAbi } from '../src/chain/usdc-abi.ts';
import { loadApiConfig } from '../src/config.ts';
import { depositXpubFromMnemonic, newMnemonic } from '../src/keys/hd.ts';
import { walletForwarded } from '../src/payments/forwarded.ts';
import { newWebhookKeyPair } from '../src/webhooks/signing.ts';
import { apiClient, newMerchant, storeForm } from './support/client.ts';
import { startTestDatabase } from './support/database.ts';
import { orderOneMug, walletOf } from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';
import {
  merchantUpstream,
  payThenReplay,
  upstreamFailureRefunds,
  type X402Deployment,
} from './support/x402-scenarios.ts';

const API_DIR = new URL('..', import.meta.url).pathname;
const CONFIRMATIONS = 10;
/** Circle's USDC on Base, as written on Base's block explorers (not read from our own tables). */
const CIRCLE_USDC_ON_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

type Stop = () => Promise<unknown> | unknown;

/** A webhook receiver on 127.0.0.1 that also notes the chain's head when each request arrived. */
function receiverOnLoopback(head: () => Promise<bigint>) {
  const received: { headers: Record<string, string>; body: string; head: bigint }[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (request) => {
      const body = await request.text();
      received.push({ headers: Object.fromEntries(request.headers), body, head: await head() });
      return new Response('ok');
    },
  });
  return { url: `http://127.0.0.1:${server.port}/hooks`, received, stop: () => server.stop(true) };
}

/** The worker as a real process, with the environment a deployment gives it and nothing else. */
function spawnWorker(env: Record<string, string>) {
  const lines: string[] = [];
  const child = Bun.spawn(['bun', 'src/worker.ts'], {
    cwd: API_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  for (const stream of [child.stdout, child.stderr]) {
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of stream) lines.push(...decoder.decode(chunk).split('\n'));
    })().catch(() => {});
  }
  return {
    lines,
    exited: () => child.exitCode !== null,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const done = await Promise.race([child.exited.then(() => true), Bun.sleep(10_000)]);
      if (!done) {
        child.kill('SIGKILL');
        await child.exited;
      }
    },
  };
}

/** The product deployed on a rehearsal chain: the API (and one with production's webhook rule), the worker process, the indexer. */
async function deploy(chainId: RehearsalChainId) {
  const stops: Stop[] = [];
  const stop = async () => {
    for (const one of stops.reverse()) await Promise.resolve(one()).catch(() => {});
  };
  try {
    const chain = await startBaseRehearsalChain({ chainId, port: await freePort() });
    stops.push(chain.stop);
    const viemChain = networks[chainId].chain;
    const client = createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl) });
    const usdcBalance = (address: Address) =>
      client.readContract({
        address: chain.usdc,
        abi: usdcAbi,
        functionName: 'balanceOf',
        args: [address],
      });
    expect(await client.getChainId()).toBe(chainId);
    expect(await usdcBalance(localAccount(1).address)).toBe(10_000_000_000n);

    const testDb = await startTestDatabase();
    stops.push(testDb.stop);

    // Keys as an operator makes them: a new deposit seed, relayer and treasury keys, a webhook key.
    const paymentMnemonic = newMnemonic();
    const relayerPrivateKey = generatePrivateKey();
    const relayer = privateKeyToAccount(relayerPrivateKey);
    const treasury = privateKeyToAccount(generatePrivateKey()).address;
    const webhookKeys = newWebhookKeyPair();
    // Note: the relayer pays the gas of forwarding, so it must hold ETH on the chain.
    await chain.setEthBalance(relayer.address, parseUnits('1', 18));

    // The indexer with CHAIN_ID and no USDC_ADDRESS: its ponder.config.ts picks Circle's address.
    const indexer = await superviseIndexer({
      databaseUrl: testDb.roleUrls.indexer,
      rpcUrl: chain.rpcUrl,
      wsUrl: chain.wsUrl,
      chainId,
      startBlock: chain.usdcStartBlock,
      port: await freePort(),
      schema: 'indexer',
    });
    stops.push(indexer.stop);

    const deployment = {
      LOCAL_MODE: 'false',
      CHAIN_ID: String(chainId),
      RPC_URL: chain.rpcUrl,
      WS_URL: chain.wsUrl,
      CONFIRMATIONS: String(CONFIRMATIONS),
      USDC_START_BLOCK: String(chain.usdcStartBlock),
      TREASURY_ADDRESS: treasury,
    };
    const apiEnv = {
      ...deployment,
      DATABASE_URL: testDb.roleUrls.api,
      INDEXER_URL: indexer.url,
      PAYMENT_XPUB: depositXpubFromMnemonic(paymentMnemonic),
      RELAYER_ADDRESS: relayer.address,
      WEBHOOK_PUBLIC_KEY: webhookKeys.publicKey,
    };
    // The only deviation (see the file's head): the receiver is on 127.0.0.1 over http.
    const allowLoopbackReceiver = { ALLOW_PRIVATE_WEBHOOKS: 'true' };

    const production = loadApiConfig(apiEnv);
    expect(production).toMatchObject({
      localMode: false,
      allowPrivateWebhooks: false,
      confirmations: CONFIRMATIONS,
      chain: { chainId, usdc: chain.usdc, rpcUrl: chain.rpcUrl },
      rateLimits: { ordersPerMinute: 30, storeOrdersPerMinute: 600, walletsPerMinute: 60 },
    });
    const config = loadApiConfig({ ...apiEnv, ...allowLoopbackReceiver });
    expect(config).toMatchObject({ ...production, allowPrivateWebhooks: true });
    const apiChain = createPublicClient({ transport: http(config.chain.rpcUrl) });
    const productionApp = createApp({
      db: testDb.database.db,
      config: production,
      chain: apiChain,
    });
    const app = createApp({ db: testDb.database.db, config, chain: apiChain });

    const worker = spawnWorker({
      ...deployment,
      ...allowLoopbackReceiver,
      DATABASE_URL: testDb.roleUrls.worker,
      PAYMENT_MNEMONIC: paymentMnemonic,
      RELAYER_PRIVATE_KEY: relayerPrivateKey,
      WEBHOOK_SIGNING_KEY: webhookKeys.secretKey,
    });
    stops.push(worker.stop);
    const ready = await waitUntil(
      () => {
        if (worker.exited()) throw new Error(`worker exited:\n${worker.lines.join('\n')}`);
        return worker.lines.find((line) => line.startsWith('worker: ready'));
      },
      'the worker',
      20_000,
    );
    expect(ready).toContain(`ready on chain ${chainId} (USDC ${chain.usdc})`);
    expect(ready).toContain(`at ${CONFIRMATIONS} confirmations`);

    const receiver = receiverOnLoopback(() => client.getBlockNumber({ cacheTime: 0 }));
    stops.push(receiver.stop);
    return {
      chainId,
      chain,
      client,
      usdcBalance,
      viemChain,
      db: testDb.database.db,
      config,
      app,
      productionApp,
      worker,
      receiver,
      stops,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
type Deployment = Awaited<ReturnType<typeof deploy>>;

/** A store order paid by a wallet's transfer at the deposit address, counted at depth 10, forwarded 98/2. */
async function storeOrder(d: Deployment, expect_: { forwards: boolean }) {
  const { chain, client, usdcBalance, viemChain, app, productionApp, worker, receiver } = d;
  const db = d.db;
  const treasury = d.config.treasuryAddress;
  const treasuryBefore = await usdcBalance(treasury);
  // A merchant signs up and makes a store paying out to a fresh address, with a webhook.
  const owner = await newMerchant(app, 'rehearsal');
  const payout = privateKeyToAccount(generatePrivateKey()).address;
  const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
  const refused = await apiClient(productionApp, owner.cookie).put(
    `/api/stores/${store.id}/webhook`,
    { url: receiver.url },
  );
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(refused.status).toBeLessThan(500);
  const hook = await owner.api.put(`/api/stores/${store.id}/webhook`, { url: receiver.url });
  expect(hook.status).toBe(200);
  const secret = (await owner.api.get(`/api/stores/${store.id}/webhook/secret`)).body
    .secret as string;

  // A shopper orders and pays 10.80 USDC from a funded account, as a wallet on Base would.
  const shopper = apiClient(app);
  const { orderId } = await orderOneMug(owner, shopper, store.id);
  const assigned = await shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
    paymentChain: 'base',
  });
  expect(assigned.status).toBe(200);
  const deposit = assigned.body.paymentWallet.address as Address;
  const amount = parseUnits('10.80', 6);
  const wallet = createWalletClient({
    account: localAccount(1),
    chain: viemChain,
    transport: http(chain.rpcUrl),
  });
  const hash: Hash = await wallet.writeContract({
    address: chain.usdc,
    abi: usdcAbi,
    functionName: 'transfer',
    args: [deposit, amount],
  });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  expect(receipt.status).toBe('success');

  const eventOf = (type: string) =>
    waitUntil(() => receiver.received.find((r) => JSON.parse(r.body).type === type), type, 20_000);
  const paid = await eventOf('order.paid');
  expect(new Webhook(secret).verify(paid.body, paid.headers)).toMatchObject({
    type: 'order.paid',
    orderId,
    paymentWallet: { address: deposit, receivedAmount: '10.800000' },
  });
  // Counted only at depth: the payment's block and 9 more were mined before order.paid.
  expect(paid.head - receipt.blockNumber + 1n).toBeGreaterThanOrEqual(BigInt(CONFIRMATIONS));

  if (!expect_.forwards) {
    // Known defect on Base Sepolia (see the test's name): the worker's EIP-3009 signature is
    // refused, so the payment stays at the deposit address, retried.
    const failed = await waitUntil(
      async () => (await walletOf(db, orderId)).forwardingError ?? undefined,
      `the forwarding error of ${orderId}`,
      20_000,
    );
    expect(failed).toContain('FiatTokenV2: invalid signature');
    expect(await usdcBalance(deposit)).toBe(amount);
    expect(await usdcBalance(payout)).toBe(0n);
    return;
  }

  const forwarded = await waitUntil(
    async () => {
      const row = await walletOf(db, orderId);
      return row.forwardingStatus === 'completed' && (await walletForwarded(db, row)) && row;
    },
    `forwarding of ${orderId}`,
    45_000,
  );
  expect(forwarded.forwardedAmountUsdc).toBe('10.800000');
  const { merchant, fee } = splitFee(amount);
  expect(merchant).toBe(parseUnits('10.584', 6));
  expect(await usdcBalance(payout)).toBe(merchant);
  expect((await usdcBalance(treasury)) - treasuryBefore).toBe(fee);
  expect(await usdcBalance(deposit)).toBe(0n);

  const done = await eventOf('order.forwarded');
  expect(new Webhook(secret).verify(done.body, done.headers)).toMatchObject({
    type: 'order.forwarded',
    forwarding: { amount: '10.800000', merchantAmount: '10.584000', feeAmount: '0.216000' },
  });
  expect(worker.lines.join('\n')).not.toMatch(/ALERT|Error/);
}

describe('the product on a Base-like chain, configured as a deployment', () => {
  describe('Base mainnet (8453)', () => {
    let d: Deployment;
    beforeAll(async () => {
      d = await deploy(8453);
    }, 60_000);
    afterAll(async () => {
      await d?.stop();
    }, 30_000);

    test('a store order is paid, forwarded 98/2 at depth 10, webhooks verify', async () => {
      await storeOrder(d, { forwards: true });
    }, 60_000);

    test("x402 (network eip155:8453, Circle's USDC): 402, pay with @x402/fetch, the resource; paid, forwarded 98/2, webhooked; a replay not charged; an upstream failure refunds on chain", async () => {
      const upstream = merchantUpstream();
      d.stops.push(upstream.stop);
      // Production refuses the merchant's API on http://127.0.0.1 (the deviation, as for webhooks).
      const owner = await newMerchant(d.app, 'rehearsal-x402');
      const store = (await owner.api.post('/api/stores', storeForm())).body;
      const refused = await apiClient(d.productionApp, owner.cookie).post('/api/products', {
        storeId: store.id,
        title: 'Answer API',
        priceUsdc: '0.25',
        digital: { kind: 'api', upstreamUrl: upstream.url },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error.message).toBe(DIGITAL_PRODUCT_MESSAGES.upstreamHttps);
      const here: X402Deployment = {
        app: d.app,
        db: d.db,
        config: d.config,
        receiver: d.receiver,
        upstream,
      };
      const { offer } = await payThenReplay(here, localAccount(5), {
        network: 'eip155:8453',
        asset: CIRCLE_USDC_ON_BASE,
        tokenName: 'USD Coin',
      });
      expect(offer.network).toBe('eip155:8453');
      expect(offer.asset).toBe(CIRCLE_USDC_ON_BASE);
      await upstreamFailureRefunds(here, localAccount(7));
      expect(d.worker.lines.join('\n')).not.toMatch(/ALERT|Error/);
    }, 60_000);
  });

  // Circle's USDC on Base Sepolia has the EIP-712 name "USDC" ("USD Coin" on Base): the worker
  // signs for the chain's own name (shared chain facts), so Sepolia forwards like mainnet.
  test('Base Sepolia (84532): a store order is paid, forwarded 98/2 at depth 10, webhooks verify', async () => {
    const d = await deploy(84532);
    try {
      await storeOrder(d, { forwards: true });
    } finally {
      await d.stop();
    }
  }, 90_000);
});
