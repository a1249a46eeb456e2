// GET /api/health on the real local stack: database, chain, indexer, settlement addresses and the
// relayer's balance, with one alert line per problem.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createPublicClient, http } from 'viem';
import { type App, createApp } from '../src/app.ts';
import { loadApiConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/client.ts';
import type { Health } from '../src/modules/health/service.ts';
import { startTestStack, type TestStack } from './support/stack.ts';

let stack: TestStack;
let database: ReturnType<typeof createDatabase>;
let app: App;

function appWith(overrides: { INDEXER_URL?: string; RPC_URL?: string } = {}) {
  const config = loadApiConfig({ ...stack.env, ...overrides });
  const chain = createPublicClient({ transport: http(config.chain.rpcUrl) });
  return createApp({ db: database.db, config, chain });
}

const getHealth = async (target: App) => {
  const response = await target.handle(new Request('http://localhost/api/health'));
  return { status: response.status, body: (await response.json()) as Health };
};

beforeAll(async () => {
  stack = await startTestStack();
  database = createDatabase(stack.env.DATABASE_URL as string, { max: 2 });
  app = appWith();
});

afterAll(async () => {
  await database?.close();
  await stack?.stop();
});

describe('GET /api/health', () => {
  test('answers ok with the chain, the indexer and the settlement addresses', async () => {
    const { status, body } = await getHealth(app);
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.database).toBe(true);
    expect(body.chain.chainId).toBe(31337);
    expect(body.chain.usdc).toBe(stack.env.USDC_ADDRESS as string);
    expect(body.chain.blockNumber).toBeGreaterThan(0);
    expect(body.indexer.ready).toBe(true);
    expect(body.indexer.blockNumber).toBeGreaterThan(0);
    expect(body.settlement).toMatchObject({
      relayer: {
        address: stack.env.RELAYER_ADDRESS as string,
        belowThreshold: false,
        minForwards: 50,
        waitingWallets: 0,
        oldestForwardingLagSeconds: null,
        lagAlertSeconds: 120,
      },
      treasury: stack.env.TREASURY_ADDRESS as string,
    });
    // The demo link's payee: local mode's default, anvil's account 9 (never a burn address).
    expect(body.demo).toEqual({ payoutAddress: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' });
    expect(BigInt(body.settlement.relayer.balanceWei ?? 0)).toBeGreaterThan(
      BigInt(body.settlement.relayer.minBalanceWei ?? 0),
    );
    expect(body.alerts).toEqual([]);
  });

  test('a relayer low on ETH is an alert, read from the chain by address; ok stays true', async () => {
    const client = createPublicClient({ transport: http(stack.env.RPC_URL) });
    const address = stack.env.RELAYER_ADDRESS as `0x${string}`;
    const before = await client.getBalance({ address });
    const setBalance = (wei: bigint) =>
      client.request({
        method: 'anvil_setBalance' as 'eth_chainId',
        params: [address, `0x${wei.toString(16)}`] as never,
      });
    await setBalance(10n ** 12n);
    try {
      const { status, body } = await getHealth(app);
      expect(status).toBe(200);
      expect(body.ok).toBe(true);
      expect(body.settlement.relayer).toMatchObject({
        balanceWei: String(10n ** 12n),
        balanceEth: '0.000001',
        belowThreshold: true,
      });
      expect(body.alerts).toHaveLength(1);
      expect(body.alerts[0]).toMatch(
        new RegExp(`^relayer ${address} holds 0\\.000001 ETH, below .* ETH \\(50 forwards`),
      );
    } finally {
      await setBalance(before);
    }
    expect((await getHealth(app)).body.alerts).toEqual([]);
  });

  test('the indexer follows the chain: its block is within a few blocks of the head', async () => {
    const { body } = await getHealth(app);
    expect(Number(body.chain.blockNumber) - Number(body.indexer.blockNumber)).toBeLessThanOrEqual(
      5,
    );
  });

  test('answers 503 and names the part that is down when the indexer is unreachable', async () => {
    const { status, body } = await getHealth(appWith({ INDEXER_URL: 'http://127.0.0.1:9' }));
    expect(status).toBe(503);
    expect(body.ok).toBe(false);
    expect(body.database).toBe(true);
    expect(body.indexer).toEqual({ ready: false, blockNumber: null });
    expect(body.chain.blockNumber).toBeGreaterThan(0);
    expect(body.alerts).toEqual(['the indexer is not ready']);
  });

  test('answers 503 with no block number when the chain is unreachable', async () => {
    const { status, body } = await getHealth(appWith({ RPC_URL: 'http://127.0.0.1:9' }));
    expect(status).toBe(503);
    expect(body.chain.blockNumber).toBeNull();
    expect(body.settlement.relayer).toMatchObject({ balanceWei: null, belowThreshold: null });
    expect(body.alerts).toContain('the chain (RPC_URL) does not answer');
  });
});

describe('local keys', () => {
  test('the API gets only the extended public key; the worker gets the seed', () => {
    expect(stack.env.PAYMENT_XPUB).toStartWith('xpub');
    expect(stack.env.PAYMENT_MNEMONIC?.split(' ')).toHaveLength(24);
  });
});
