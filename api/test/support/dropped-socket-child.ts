// A child process for dropped-socket.test.ts: makes the `postgres` client write on a socket
// Postgres closed (a reserved connection whose backend was terminated, then queried), with or
// without the API's and the worker's handler (CHILD_GUARD), or throws some other uncaught error
// (CHILD_MODE=other). Prints "alive" if it is still running a second later, then ends by itself.
import postgres from 'postgres';
import { surviveDroppedDatabaseSockets } from '../../src/db/dropped-socket.ts';

if (process.env.CHILD_GUARD === '1') surviveDroppedDatabaseSockets((line) => console.log(line));
if (process.env.CHILD_MODE === 'other') {
  setImmediate(() => {
    throw new TypeError('something else went wrong');
  });
} else {
  const url = process.env.CHILD_DATABASE_URL ?? '';
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  const killer = postgres(url, { max: 1, onnotice: () => {} });
  const reserved = await sql.reserve();
  const [row] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
  await killer`select pg_terminate_backend(${row?.pid ?? 0})`;
  await Bun.sleep(200);
  for (let i = 0; i < 2; i++) void reserved`select 1`.catch(() => {});
  setTimeout(() => void Promise.all([sql.end({ timeout: 1 }), killer.end({ timeout: 1 })]), 1000);
}
// Note: no process.exit: its code is what the uncaught error left (1 if the process had to end).
setTimeout(() => console.log('alive'), 1000);
