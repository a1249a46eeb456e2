// Local chain + Circle's USDC + the Ponder indexer on a real embedded Postgres, end to end.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Anvil, startAnvil } from '@store/stack/anvil';
import {
  type Indexer,
  indexerDataMatchesChain,
  resetIndexerData,
  startIndexer,
} from '@store/stack/indexer';
import { freePort } from '@store/stack/ports';
import { type EmbeddedPostgresServer, startEmbeddedPostgres } from '@store/stack/postgres';
import {
  deployLocalUsdc,
  LOCAL_ACCOUNT_INDEX,
  type LocalUsdc,
  localAccount,
  TEST_ACCOUNT_INDEXES,
  TEST_ACCOUNT_USDC,
} from '@store/stack/usdc';
import postgres from 'postgres';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  http,
  type PublicClient,
  parseUnits,
  toHex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { getIndexerStatus } from '../src/chain/indexer-status.ts';
import {
  signTransferAuthorization,
  transferWithAuthorizationData,
  usdcAbi,
} from '../src/chain/usdc-abi.ts';

const SCHEMA = 'indexer';
let dir: string;
let pg: EmbeddedPostgresServer;
let sql: postgres.Sql;
let anvil: Anvil;
let indexer: Indexer;
let token: LocalUsdc;
let client: PublicClient;
let indexerPort: number;

/** The operator's token that turns the indexer's /sql and /graphql on (off without one). */
const SQL_TOKEN = 'test-indexer-sql-token-0123456789abcdef';
const bearer = { authorization: `Bearer ${SQL_TOKEN}` };

function indexerOptions() {
  return {
    sqlToken: SQL_TOKEN,
    databaseUrl: pg.url,
    rpcUrl: anvil.rpcUrl,
    wsUrl: anvil.wsUrl,
    chainId: anvil.chainId,
    usdcAddress: token.usdc,
    startBlock: token.deployBlock,
    port: indexerPort,
    schema: SCHEMA,
  };
}

function wallet(index: number) {
  return createWalletClient({
    account: localAccount(index),
    chain: foundry,
    transport: http(anvil.rpcUrl),
  });
}

async function transferRows(to: Address) {
  const rows = await sql<
    { from: string; to: string; value: string; tx_hash: string; block_number: string }[]
  >`select "from", "to", value::text, tx_hash, block_number::text
    from ${sql(SCHEMA)}.transfer where "to" = ${to.toLowerCase()}`;
  return [...rows];
}

/** Sends `amount` from test account 1 and returns the receipt time and when its row showed up. */
async function transferAndWaitForRow(to: Address, amount: bigint) {
  const sentAt = performance.now();
  const hash = await wallet(1).writeContract({
    address: token.usdc,
    abi: usdcAbi,
    functionName: 'transfer',
    args: [to, amount],
  });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  const minedAt = performance.now();
  for (;;) {
    const rows = await transferRows(to);
    if (rows.length > 0) return { hash, receipt, rows, sentAt, minedAt, rowAt: performance.now() };
    if (performance.now() - minedAt > 10_000)
      throw new Error('transfer row did not appear in 10 s');
    await Bun.sleep(5);
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chain-indexer-'));
  pg = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    port: await freePort(),
    ephemeral: true,
  });
  sql = postgres(pg.url, { max: 2, onnotice: () => {} });
  anvil = await startAnvil({
    port: await freePort(),
    blockTime: 0.2,
    stateFile: join(dir, 'anvil-state.json'),
  });
  client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
  token = await deployLocalUsdc({ rpcUrl: anvil.rpcUrl });
  indexerPort = await freePort();
  indexer = await startIndexer(indexerOptions());
}, 60_000);

afterAll(async () => {
  await indexer?.stop();
  await anvil?.stop();
  await sql?.end({ timeout: 5 });
  await pg?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 30_000);

describe('local USDC', () => {
  test('is Circle FiatToken v2 with USDC metadata', async () => {
    const read = <F extends 'name' | 'symbol' | 'decimals' | 'version'>(functionName: F) =>
      client.readContract({ address: token.usdc, abi: usdcAbi, functionName });
    expect(await read('name')).toBe('USD Coin');
    expect(await read('symbol')).toBe('USDC');
    expect(await read('decimals')).toBe(6);
    expect(await read('version')).toBe('2');
    expect(token.deployed).toBe(true);
  });

  test('test accounts 1..9 hold 10,000 USDC each; the relayer holds none', async () => {
    for (const index of TEST_ACCOUNT_INDEXES) {
      const balance = await client.readContract({
        address: token.usdc,
        abi: usdcAbi,
        functionName: 'balanceOf',
        args: [localAccount(index).address],
      });
      expect(balance).toBe(TEST_ACCOUNT_USDC);
    }
    const relayer = localAccount(LOCAL_ACCOUNT_INDEX.relayer).address;
    expect(
      await client.readContract({
        address: token.usdc,
        abi: usdcAbi,
        functionName: 'balanceOf',
        args: [relayer],
      }),
    ).toBe(0n);
  });
});

describe('indexer', () => {
  test('a transfer is in indexer.transfer within 2 s of being mined', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const amount = parseUnits('12.34', 6);
    const { hash, receipt, rows, sentAt, minedAt, rowAt } = await transferAndWaitForRow(to, amount);
    const latency = rowAt - minedAt;
    console.log(
      `transfer -> row: ${latency.toFixed(0)} ms after the receipt, ` +
        `${(rowAt - sentAt).toFixed(0)} ms after sending`,
    );
    expect(latency).toBeLessThan(2000);
    expect(rows).toEqual([
      {
        from: localAccount(1).address.toLowerCase(),
        to: to.toLowerCase(),
        value: '12340000',
        tx_hash: hash,
        block_number: String(receipt.blockNumber),
      },
    ]);

    const status = await getIndexerStatus(indexer.url);
    expect(status.ready).toBe(true);
    expect(status.blockNumber).toBeGreaterThanOrEqual(Number(receipt.blockNumber));
  });

  test('serves the table over SQL-over-HTTP, GraphQL and /transfers', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    await transferAndWaitForRow(to, 1_000_000n);
    const lower = to.toLowerCase();

    // Note: @ponder/client sends a superjson-encoded { sql, params } as the `sql` parameter.
    const query = {
      json: { sql: 'select "to", value from transfer where "to" = $1', params: [lower] },
    };
    const sqlResponse = await fetch(
      `${indexer.url}/sql/db?sql=${encodeURIComponent(JSON.stringify(query))}`,
      { headers: bearer },
    );
    expect(sqlResponse.status).toBe(200);
    const sqlBody = (await sqlResponse.json()) as { rows: unknown[] };
    expect(sqlBody.rows).toEqual([{ to: lower, value: '1000000' }]);

    const gql = await fetch(`${indexer.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer },
      body: JSON.stringify({
        query: `{ transfers(where: { to: "${lower}" }) { items { to value blockNumber } } }`,
      }),
    });
    const gqlBody = (await gql.json()) as {
      data: { transfers: { items: { to: string; value: string }[] } };
    };
    expect(gqlBody.data.transfers.items).toEqual([
      expect.objectContaining({ to: lower, value: '1000000' }),
    ]);

    const rest = (await (await fetch(`${indexer.url}/transfers/${to}`)).json()) as unknown[];
    expect(rest).toEqual([expect.objectContaining({ to: lower, value: '1000000' })]);
  });
});

describe('EIP-3009', () => {
  test('transferWithAuthorization from a fresh key, submitted by the relayer; replay reverts', async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    await transferAndWaitForRow(payer.address, 5_000_000n);

    const message = {
      from: payer.address,
      to: payee,
      value: 5_000_000n,
      validAfter: 0n,
      validBefore: BigInt(Math.floor(Date.now() / 1000) + 3600),
      nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
    };
    const signature = await signTransferAuthorization(payer, anvil.chainId, token.usdc, message);
    const call = { to: token.usdc, data: transferWithAuthorizationData(message, signature) };
    const relayer = wallet(LOCAL_ACCOUNT_INDEX.relayer);
    const hash = await relayer.sendTransaction(call);
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    expect(receipt.status).toBe('success');
    const balanceOf = (account: Address) =>
      client.readContract({
        address: token.usdc,
        abi: usdcAbi,
        functionName: 'balanceOf',
        args: [account],
      });
    expect(await balanceOf(payee)).toBe(5_000_000n);
    expect(await balanceOf(payer.address)).toBe(0n);
    expect(
      await client.readContract({
        address: token.usdc,
        abi: usdcAbi,
        functionName: 'authorizationState',
        args: [payer.address, message.nonce],
      }),
    ).toBe(true);

    const replay = relayer.sendTransaction(call);
    await expect(replay).rejects.toThrow('authorization is used');
  });
});

describe('restart', () => {
  test('a restarted chain (state file) and indexer continue where they stopped', async () => {
    const before = await transferRows(localAccount(9).address);
    await indexer.stop();
    await anvil.stop();

    anvil = await startAnvil({
      port: await freePort(),
      blockTime: 0.2,
      stateFile: join(dir, 'anvil-state.json'),
    });
    client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
    expect(anvil.fresh).toBe(false);
    const again = await deployLocalUsdc({ rpcUrl: anvil.rpcUrl });
    expect(again).toMatchObject({
      usdc: token.usdc,
      deployBlock: token.deployBlock,
      deployed: false,
    });
    expect(await indexerDataMatchesChain({ ...indexerOptions(), databaseUrl: pg.url })).toBe(true);

    indexer = await startIndexer(indexerOptions());
    expect(await transferRows(localAccount(9).address)).toEqual(before);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const { rowAt, minedAt } = await transferAndWaitForRow(to, 2_000_000n);
    expect(rowAt - minedAt).toBeLessThan(2000);
  }, 60_000);

  test('a fresh chain is detected and the indexer data is reset', async () => {
    await indexer.stop();
    await anvil.stop();
    anvil = await startAnvil({ port: await freePort(), blockTime: 0.2 });
    client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
    expect(anvil.fresh).toBe(true);
    token = await deployLocalUsdc({ rpcUrl: anvil.rpcUrl });
    const check = { databaseUrl: pg.url, schema: SCHEMA, chainId: anvil.chainId };
    expect(await indexerDataMatchesChain({ ...check, rpcUrl: anvil.rpcUrl })).toBe(false);
    await resetIndexerData(check);

    indexer = await startIndexer(indexerOptions());
    const [row] = await sql<{ count: string }[]>`
      select count(*)::text as count from ${sql(SCHEMA)}.transfer`;
    expect(row?.count).toBe(String(TEST_ACCOUNT_INDEXES.length));
  }, 60_000);
});
