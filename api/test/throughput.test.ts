// The throughput benchmark's short run as a test (not timed): universal orders paid at a steady
// rate on the product's own stack with background traffic, as `bun run bench:throughput` does for
// 60 s a level. Every payment must be forwarded exactly once (two transfers out of each deposit
// address, each authorization used once), the chain's ledger must match the database's, and the
// relayer must carry the legs together (fewer transactions than payments: one per leg was two).
// A second of warm-up payments comes first and is counted apart.
import { expect, test } from 'bun:test';
import { resolve } from 'node:path';

const RATE = process.env.THROUGHPUT_RATE ?? '20';
const SECONDS = process.env.THROUGHPUT_SECONDS ?? '4';

test(`payments at ${RATE}/s for ${SECONDS} s are all forwarded once in batches, ledger balanced`, async () => {
  const root = resolve(import.meta.dir, '../..');
  const child = Bun.spawn(
    [
      process.execPath,
      'bench/throughput/run.ts',
      '--rates',
      RATE,
      '--seconds',
      SECONDS,
      '--warmup',
      '1',
      '--background',
      '5',
      '--drain',
      '60',
      '--no-write',
    ],
    { cwd: root, stdout: 'pipe', stderr: 'pipe' },
  );
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  expect(code, `${out}\n${err}`).toBe(0);
  const line = out.split('\n').find((l) => l.startsWith('{"rate"'));
  expect(line, out).toBeDefined();
  console.log(line);
  const result = JSON.parse(line ?? '{}') as {
    payments: number;
    arrived: number;
    forwarded: number;
    unforwarded: number;
    extraTransfers: number;
    forwardingTxs: number;
    relayerTxs: number;
    authorizationsUsedTwice: string[];
    breaches: string[];
    coldStart: { payments: number } | null;
  };
  const payments = Number(RATE) * Number(SECONDS);
  // Note: the warm-up's second of payments (the worker's first) is reported apart.
  expect(result.coldStart?.payments).toBe(Number(RATE));
  expect(result.payments).toBe(payments);
  expect(result.arrived).toBe(payments);
  expect(result.forwarded).toBe(payments);
  expect(result.unforwarded).toBe(0);
  expect(result.extraTransfers).toBe(0);
  expect(result.authorizationsUsedTwice).toEqual([]);
  expect(result.breaches).toEqual([]);
  // Note: a round's two legs always go together, and rounds handed over at once share one.
  expect(result.relayerTxs).toBeLessThanOrEqual(payments);
  expect(result.forwardingTxs).toBeLessThanOrEqual(payments);
}, 240_000);
