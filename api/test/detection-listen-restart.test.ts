// The detection loop wakes on the indexer's block notifications (LISTEN), not only every
// interval; a Postgres crash must not cost it that: once the database is back, a notification
// wakes a pass at once again, not at the next interval. On a real Postgres killed with SIGKILL
// and started again on the same data and port 35 s later (the indexer's tables as Ponder creates
// them).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@store/stack/ports';
import { type EmbeddedPostgresServer, startEmbeddedPostgres } from '@store/stack/postgres';
import postgres from 'postgres';
import { INDEXER_BLOCK_CHANNEL } from '../src/chain/indexer.ts';
import { createDatabase, migrateDatabase } from '../src/db/client.ts';
import { type DetectionLoop, startDetectionLoop } from '../src/worker/detection-loop.ts';
import { waitUntil } from './support/settlement.ts';

const CHAIN_ID = 31337;
/** The loop's interval: a pass sooner than this after a notification was woken by it. */
const INTERVAL_MS = 4000;
/**
 * How long Postgres stays down: as long as the crashes measured on a deployment (35-37 s). Note:
 * the client's own re-listen survives an outage of a few seconds, not this one.
 */
const OUTAGE_MS = 35_000;

let dataDir: string;
let port: number;
let server: EmbeddedPostgresServer;
let database: ReturnType<typeof createDatabase>;
let loop: DetectionLoop;
const passes: number[] = [];
const logs: string[] = [];

function checkpoint(block: number): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(1_700_000_000 + block, 10)}${pad(CHAIN_ID, 16)}${pad(block, 16)}${pad(0, 16)}5${pad(0, 16)}`;
}

const start = () => startEmbeddedPostgres({ dataDir, port, ephemeral: true });

beforeAll(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'store-listen-')), 'postgres');
  port = await freePort();
  server = await start();
  await migrateDatabase(server.url);
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`
    create schema indexer;
    create table indexer.transfer (id text primary key, "from" text not null, "to" text not null,
      value numeric(78, 0) not null, block_number numeric(78, 0) not null,
      block_timestamp numeric(78, 0) not null, tx_hash text not null, log_index integer not null);
    create table indexer._ponder_checkpoint (chain_name text primary key, chain_id bigint not null,
      latest_checkpoint text not null)`);
  await admin`insert into indexer._ponder_checkpoint values ('anvil', ${CHAIN_ID}, ${checkpoint(1)})`;
  await admin.end();
  database = createDatabase(server.url, { max: 3 });
  loop = startDetectionLoop({
    db: database.db,
    chainId: CHAIN_ID,
    confirmations: 1,
    intervalMs: INTERVAL_MS,
    reconcileMs: 3_600_000,
    log: (line) => logs.push(line),
    onPass: () => passes.push(performance.now()),
  });
  await waitUntil(() => passes.length > 0, 'the first pass', 20_000);
}, 120_000);

afterAll(async () => {
  await loop?.stop();
  await database?.close();
  await server?.stop();
  if (dataDir) await rm(join(dataDir, '..'), { recursive: true, force: true });
  if (process.env.SHOW_WORKER_LOGS) console.log(logs.join('\n'));
}, 60_000);

/** Notifies the indexer's channel (as Ponder does at each block); ms until the next pass. */
async function wakeUpDelay(): Promise<number> {
  // Note: right after a pass, so the interval alone would take INTERVAL_MS.
  const before = passes.length;
  await waitUntil(() => passes.length > before, 'a pass', INTERVAL_MS * 3);
  const seen = passes.length;
  const notifier = postgres(server.url, { max: 1, onnotice: () => {} });
  try {
    const sent = performance.now();
    await notifier`select pg_notify(${INDEXER_BLOCK_CHANNEL}, 'transfer')`;
    await waitUntil(() => passes.length > seen, 'a pass after the notification', INTERVAL_MS * 3);
    return (passes[seen] ?? 0) - sent;
  } finally {
    await notifier.end();
  }
}

describe('the detection loop through a Postgres crash', () => {
  test('wakes on block notifications again once the database is back', async () => {
    expect(await wakeUpDelay()).toBeLessThan(INTERVAL_MS / 4);

    process.kill(-server.pid, 'SIGKILL');
    await Bun.sleep(OUTAGE_MS);
    server = await start();
    // Back: a pass succeeds again (at the latest one interval later).
    const failedAt = passes.length;
    await waitUntil(() => passes.length > failedAt, 'a pass after the restart', INTERVAL_MS * 4);

    // Note: the subscription is made again beside the passes, within seconds of the first one
    // that succeeds; from then on every notification wakes a pass at once.
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      delays.push(await wakeUpDelay());
      if (delays.length >= 2 && delays.slice(-2).every((d) => d < INTERVAL_MS / 4)) break;
    }
    console.log(`wake-up after the restart: ${delays.map(Math.round).join(', ')} ms`);
    for (const delay of delays.slice(-2)) expect(delay).toBeLessThan(INTERVAL_MS / 4);
  }, 120_000);
});
