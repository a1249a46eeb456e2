// The indexer's SQL over HTTP: off without a token, behind it otherwise, on loopback only, and
// not fooled by two queries whose SHA-256 share a 40-bit prefix (Ponder 0.16.10 approved a query
// under that prefix; patches/ponder@0.16.10.patch keys its caches by the full hash).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Anvil, startAnvil } from '@store/stack/anvil';
import { type Indexer, type IndexerOptions, startIndexer } from '@store/stack/indexer';
import { freePort } from '@store/stack/ports';
import { type EmbeddedPostgresServer, startEmbeddedPostgres } from '@store/stack/postgres';
import { deployLocalUsdc, type LocalUsdc } from '@store/stack/usdc';
import postgres from 'postgres';
import { migrateDatabase } from '../src/db/client.ts';

const SCHEMA = 'indexer';
const SQL_TOKEN = `sql-${crypto.randomUUID()}-${crypto.randomUUID()}`;
const VICTIM = { username: 'sql-victim', password: `secret-hash-${crypto.randomUUID()}` };

let dir: string;
let pg: EmbeddedPostgresServer;
let db: postgres.Sql;
let anvil: Anvil;
let token: LocalUsdc;
let indexer: Indexer;

async function indexerOptions(extra: Partial<IndexerOptions> = {}): Promise<IndexerOptions> {
  return {
    databaseUrl: pg.url,
    rpcUrl: anvil.rpcUrl,
    wsUrl: anvil.wsUrl,
    chainId: anvil.chainId,
    usdcAddress: token.usdc,
    startBlock: token.deployBlock,
    port: await freePort(),
    schema: SCHEMA,
    ...extra,
  };
}

/**
 * GET /sql/db exactly as @ponder/client sends a query: the `sql` parameter is
 * superjson.stringify({ sql, params, typings }), which for plain values is `{"json": {...}}`.
 */
async function sqlOverHttp(sql: string, authorization?: string, base = indexer.url) {
  const query = JSON.stringify({ json: { sql, params: [], typings: [] } });
  const response = await fetch(`${base}/sql/db?sql=${encodeURIComponent(query)}`, {
    headers: authorization ? { authorization } : {},
  });
  return { status: response.status, text: await response.text() };
}

const bearer = `Bearer ${SQL_TOKEN}`;

/** The first 10 hex characters of the SHA-256 (the key Ponder 0.16.10 approved queries by). */
function hashPrefix(text: string): string {
  return new Bun.CryptoHasher('sha256').update(text).digest('hex').slice(0, 10);
}

/**
 * Birthday search: an allowed query (on the indexer's table) and a forbidden one (another schema)
 * whose SHA-256 share the first 40 bits. 2^20 allowed variants in a map, then forbidden variants
 * until one hits (about 2^20 expected). Deterministic: the same pair every run.
 */
function findPrefixCollision() {
  const allowed = (i: number) => `select id, "to", value from transfer limit ${i}`;
  const forbidden = (j: number) => `select username, password from public.users limit ${j}`;
  const digest = new Uint8Array(32);
  const view = new DataView(digest.buffer);
  // The first 40 bits of the SHA-256 as a number (exact: under 2^53).
  const key = (text: string) => {
    Bun.SHA256.hash(text, digest);
    return view.getUint8(0) * 2 ** 32 + view.getUint32(1);
  };
  const seen = new Map<number, number>();
  for (let i = 1; i <= 2 ** 20; i++) seen.set(key(allowed(i)), i);
  for (let j = 1; j <= 2 ** 26; j++) {
    const i = seen.get(key(forbidden(j)));
    if (i !== undefined)
      return { allowed: allowed(i), forbidden: forbidden(j), tries: 2 ** 20 + j };
  }
  throw new Error('no 40-bit collision found (probability about e^-64)');
}

/** Names of the environment variables of a running process. */
function environmentNames(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .filter(Boolean)
    .map((entry) => entry.slice(0, entry.indexOf('=')));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'indexer-sql-'));
  pg = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    port: await freePort(),
    ephemeral: true,
  });
  await migrateDatabase(pg.url);
  db = postgres(pg.url, { max: 2, onnotice: () => {} });
  await db`insert into public.users (username, password)
    values (${VICTIM.username}, ${VICTIM.password})`;
  anvil = await startAnvil({ port: await freePort(), blockTime: 0.2 });
  token = await deployLocalUsdc({ rpcUrl: anvil.rpcUrl });

  // Note: secrets and PORT in this process's environment must not reach Ponder (PORT would
  // even win over --port).
  const planted = {
    PORT: '1',
    PAYMENT_MNEMONIC: 'test test test test test test test test test test test junk',
    RELAYER_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
    WEBHOOK_SIGNING_KEY: 'whsk_planted',
  };
  const saved = Object.fromEntries(Object.keys(planted).map((name) => [name, process.env[name]]));
  Object.assign(process.env, planted);
  try {
    indexer = await startIndexer(await indexerOptions({ sqlToken: SQL_TOKEN }));
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}, 90_000);

afterAll(async () => {
  await indexer?.stop();
  await anvil?.stop();
  await db?.end({ timeout: 5 });
  await pg?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 30_000);

describe('indexer with a SQL token', () => {
  test('Ponder gets only the variables it needs', () => {
    const names = environmentNames(indexer.pid);
    for (const secret of [
      'PORT',
      'PAYMENT_MNEMONIC',
      'RELAYER_PRIVATE_KEY',
      'WEBHOOK_SIGNING_KEY',
    ]) {
      expect(names).not.toContain(secret);
    }
    const allowed = [
      'PATH',
      'HOME',
      'NODE_OPTIONS',
      'NODE_EXTRA_CA_CERTS',
      'NODE_ENV',
      'POLLING_INTERVAL_MS',
      'DATABASE_URL',
      'RPC_URL',
      'WS_URL',
      'CHAIN_ID',
      'USDC_ADDRESS',
      'USDC_START_BLOCK',
      'PONDER_TELEMETRY_DISABLED',
      'INDEXER_SQL_TOKEN',
    ];
    expect(names.filter((name) => !allowed.includes(name))).toEqual([]);
  });

  test('/sql and /graphql answer 401 without the bearer token, and serve with it', async () => {
    const query = 'select id from transfer limit 1';
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${btoa(`x:${SQL_TOKEN}`)}`]) {
      const { status, text } = await sqlOverHttp(query, authorization);
      expect(status).toBe(401);
      expect(JSON.parse(text)).toEqual({ error: expect.any(String) });
    }
    const graphql = await fetch(`${indexer.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ transfers { items { id } } }' }),
    });
    expect(graphql.status).toBe(401);

    const ok = await sqlOverHttp(query, bearer);
    expect(ok.status).toBe(200);
    expect((JSON.parse(ok.text) as { rows: unknown[] }).rows).toHaveLength(1);
    const graphqlOk = await fetch(`${indexer.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: bearer },
      body: JSON.stringify({ query: '{ transfers(limit: 1) { items { id } } }' }),
    });
    expect(graphqlOk.status).toBe(200);
    const { data } = (await graphqlOk.json()) as { data: { transfers: { items: unknown[] } } };
    expect(data.transfers.items).toHaveLength(1);
  });

  test('a forbidden query sharing a 40-bit SHA-256 prefix with an approved one is still refused', async () => {
    const started = performance.now();
    const { allowed, forbidden, tries } = findPrefixCollision();
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `40-bit prefix collision in ${seconds.toFixed(1)} s (${tries} hashes): ` +
        `${JSON.stringify(allowed)} / ${JSON.stringify(forbidden)}`,
    );
    expect(allowed).not.toBe(forbidden);
    expect(hashPrefix(allowed)).toBe(hashPrefix(forbidden));

    // The row the forbidden query is after is really there.
    const [row] = await db`select password from public.users where username = ${VICTIM.username}`;
    expect(row?.password).toBe(VICTIM.password);
    // Alone (another text, another prefix), the forbidden query is refused by Ponder's validator.
    const alone = await sqlOverHttp('select username, password from public.users', bearer);
    expect(alone.status).toBe(500);
    expect(alone.text).toContain('Schema name not supported');

    // A is approved and answered; then B, whose cache key in unpatched Ponder is A's.
    const first = await sqlOverHttp(allowed, bearer);
    expect(first.status).toBe(200);
    const second = await sqlOverHttp(forbidden, bearer);
    expect(second.text).not.toContain(VICTIM.password);
    expect(second.text).not.toContain(VICTIM.username);
    expect(second.status).toBe(500);
    expect(second.text).toContain('Schema name not supported');
  }, 60_000);

  test('a failing query is answered at once, not retried', async () => {
    // Note: unpatched, the query builder retried it 9 times with backoff (about 64 s in all).
    const started = performance.now();
    const { status, text } = await sqlOverHttp('select block_number / 0 from transfer', bearer);
    const elapsed = performance.now() - started;
    expect(status).toBe(500);
    expect(text).toContain('division by zero');
    expect(elapsed).toBeLessThan(5_000);
  }, 90_000);

  test('is not reachable on a non-loopback address of this machine', async () => {
    const address = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
    if (!address) {
      console.log('no non-loopback IPv4 address on this machine: check skipped');
      return;
    }
    const port = new URL(indexer.url).port;
    expect((await fetch(`${indexer.url}/health`)).status).toBe(200);
    const outside = fetch(`http://${address}:${port}/health`, {
      signal: AbortSignal.timeout(5_000),
    });
    await expect(outside).rejects.toThrow();
  });
});

describe('indexer without a SQL token', () => {
  test('/sql and /graphql answer 404; /ready, /status and /transfers still answer', async () => {
    await indexer.stop();
    indexer = await startIndexer(await indexerOptions());
    expect(environmentNames(indexer.pid)).not.toContain('INDEXER_SQL_TOKEN');

    expect((await sqlOverHttp('select id from transfer limit 1', bearer)).status).toBe(404);
    expect((await sqlOverHttp('select id from transfer limit 1')).status).toBe(404);
    const graphql = await fetch(`${indexer.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: bearer },
      body: JSON.stringify({ query: '{ transfers { items { id } } }' }),
    });
    expect(graphql.status).toBe(404);
    expect((await fetch(`${indexer.url}/graphql`)).status).toBe(404);

    expect((await fetch(`${indexer.url}/ready`)).status).toBe(200);
    expect((await fetch(`${indexer.url}/status`)).status).toBe(200);
    const holder = (await db<{ to: string }[]>`select "to" from ${db(SCHEMA)}.transfer limit 1`)[0];
    const transfers = await fetch(`${indexer.url}/transfers/${holder?.to}`);
    expect(transfers.status).toBe(200);
    expect(((await transfers.json()) as unknown[]).length).toBeGreaterThan(0);
  }, 90_000);
});
