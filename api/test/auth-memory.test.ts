// The real API process under sign-ins with 900 KB usernames: each is refused (4xx) and none leaves
// anything behind, measured on the process's resident memory (VmRSS) after a warm-up.
// Note: the garbage of 40 such requests alone moves RSS by tens of MB until the collector happens
// to run, so the API is started with a preload (the test's only addition to the real entry point)
// that runs a full collection on SIGUSR2, sent before each reading: what is left is what is kept.
// Measured: the old limiter (raw usernames as keys) kept ~35 MB per 40 sign-ins, this one ~0.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiProcess, startApiProcess } from '@store/stack/api-process';
import { STACK_TIMEOUT_MS, startTestDatabase, type TestDatabase } from './support/database.ts';

const SIGN_INS = 40;
const USERNAME_BYTES = 900 * 1024;
/** Most the process may grow over the measured sign-ins (the old limiter kept ~77 MB). */
const MAX_GROWTH_MB = 10;

let testDb: TestDatabase;
let api: ApiProcess<'inherit'>;
let url: string;
let preloadDir: string;

beforeAll(async () => {
  testDb = await startTestDatabase();
  preloadDir = await mkdtemp(join(tmpdir(), 'store-api-memory-'));
  const preload = join(preloadDir, 'gc-on-signal.ts');
  await writeFile(preload, "process.on('SIGUSR2', () => Bun.gc(true));\n");
  api = await startApiProcess(testDb.url, { localMode: false, bunArgs: ['--preload', preload] });
  url = api.url;
}, STACK_TIMEOUT_MS);

afterAll(async () => {
  await api?.stop();
  await testDb?.stop();
  if (preloadDir) await rm(preloadDir, { recursive: true, force: true });
}, STACK_TIMEOUT_MS);

/** The API's resident memory in MB after a full collection, from /proc/<pid>/status. */
async function rssMb(): Promise<number> {
  api.proc.kill('SIGUSR2');
  await Bun.sleep(700);
  const status = await readFile(`/proc/${api.proc.pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error('no VmRSS in /proc status');
  return kb / 1024;
}

/** Sends `count` sign-ins, each with its own 900 KB username; returns their statuses. */
async function oversizedSignIns(count: number, tag: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const username = `${tag}-${i}-`.padEnd(USERNAME_BYTES, String.fromCharCode(97 + (i % 26)));
    const response = await fetch(`${url}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'not the password' }),
    });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

test(`${SIGN_INS} sign-ins with 900 KB usernames are refused and grow the API by < ${MAX_GROWTH_MB} MB`, async () => {
  // Warm-up: the routes, validation, argon2 and the allocator's pools reach their working size.
  await fetch(`${url}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'nobody', password: 'not the password' }),
  });
  await oversizedSignIns(SIGN_INS, 'warm');
  const before = await rssMb();

  const statuses = await oversizedSignIns(SIGN_INS, 'measured');
  const after = await rssMb();

  const growth = after - before;
  console.log(
    `API RSS: ${before.toFixed(1)} MB -> ${after.toFixed(1)} MB (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB) over ${SIGN_INS} sign-ins of 900 KB usernames`,
  );
  expect(statuses).toHaveLength(SIGN_INS);
  for (const status of statuses) {
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  }
  expect(growth).toBeLessThan(MAX_GROWTH_MB);
}, 120_000);
