// The API's and the worker's handler of uncaught errors, in a process of its own on a real
// Postgres: the `postgres` client's write on a socket Postgres closed (thrown from a timer, where
// no caller can catch it) is logged and the process lives; any other uncaught error still ends it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { isDroppedSocketWrite } from '../src/db/dropped-socket.ts';
import { startTestDatabase, type TestDatabase } from './support/database.ts';

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await startTestDatabase();
}, 60_000);
afterAll(async () => {
  await testDb?.stop();
}, 60_000);

async function runChild(env: Record<string, string>) {
  const child = Bun.spawn(
    [process.execPath, new URL('./support/dropped-socket-child.ts', import.meta.url).pathname],
    {
      env: { ...process.env, CHILD_DATABASE_URL: testDb.adminUrl, ...env },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  );
  const [code, out, err] = await Promise.all([
    child.exited,
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
  ]);
  return { code, out, err };
}

describe('an uncaught error in the API or the worker', () => {
  test("without the handler, the client's write on a dropped socket ends the process", async () => {
    const { code, err } = await runChild({ CHILD_GUARD: '0' });
    expect(code).not.toBe(0);
    expect(err).toMatch(/socket\.write/);
  }, 30_000);

  test('with it, that write is logged and the process goes on', async () => {
    const { code, out } = await runChild({ CHILD_GUARD: '1' });
    expect(out).toMatch(/database: a connection closed under a write/);
    expect(out).toMatch(/alive/);
    expect(code).toBe(0);
  }, 30_000);

  test('any other uncaught error still ends the process', async () => {
    const { code, out, err } = await runChild({ CHILD_GUARD: '1', CHILD_MODE: 'other' });
    expect(code).toBe(1);
    expect(out).not.toMatch(/alive/);
    expect(err).toMatch(/something else went wrong/);
    expect(
      isDroppedSocketWrite(new TypeError("null is not an object (evaluating 'socket.write')")),
    ).toBe(false);
  }, 30_000);
});
