// The supervision `bun run start` gives the API and the worker (stack/src/process.ts), on a tiny
// child process: killed, it is started again after its backoff with a line naming it; killed
// again at once, it waits longer; stopped, it is stopped by pid and never started again.
import { describe, expect, test } from 'bun:test';
import { superviseService } from '@store/stack/process';
import { waitUntil } from './support/settlement.ts';

/** True while a process with this pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a supervised process', () => {
  test('is started again when it exits on its own, and stays stopped once stopped', async () => {
    const said: string[] = [];
    const output: string[] = [];
    const child = superviseService(
      'tiny',
      process.execPath,
      ['-e', 'console.log("up " + process.pid); setInterval(() => {}, 1000)'],
      {
        backoffMs: 200,
        maxBackoffMs: 1000,
        healthyAfterMs: 60_000,
        log: (line) => output.push(line),
        say: (line) => said.push(line),
      },
    );
    try {
      const first = child.pid;
      await waitUntil(() => output.includes(`up ${first}`), 'the first start', 10_000);
      // Killed (a crash, an OOM kill): it comes back with a new pid, and the supervisor says so.
      process.kill(first, 'SIGKILL');
      await waitUntil(() => child.restarts() === 1, 'the restart', 10_000);
      const second = child.pid;
      expect(second).not.toBe(first);
      await waitUntil(() => output.includes(`up ${second}`), 'the second start', 10_000);
      expect(said[0]).toBe('tiny exited (killed); starting it again in 0.2 s');
      expect(said[1]).toBe(`tiny started again (pid ${second}, restart 1)`);
      // An exit right after a restart waits twice as long.
      process.kill(second, 'SIGKILL');
      await waitUntil(() => child.restarts() === 2, 'the second restart', 10_000);
      expect(said[2]).toBe('tiny exited (killed); starting it again in 0.4 s');
      const third = child.pid;
      await waitUntil(() => output.includes(`up ${third}`), 'the third start', 10_000);
      // Stopped (Ctrl-C of the start script): by pid, and never started again.
      await child.stop();
      expect(alive(third)).toBe(false);
      await Bun.sleep(600);
      expect(child.restarts()).toBe(2);
      expect(said).toHaveLength(4);
    } finally {
      await child.stop();
    }
  }, 30_000);

  test('stopped while it waits to start again, it is not started', async () => {
    const said: string[] = [];
    const child = superviseService('brief', process.execPath, ['-e', 'process.exit(3)'], {
      backoffMs: 300,
      log: () => {},
      say: (line) => said.push(line),
    });
    await waitUntil(() => said.length === 1, 'the exit', 10_000);
    expect(said[0]).toBe('brief exited (3); starting it again in 0.3 s');
    await child.stop();
    await Bun.sleep(600);
    expect(child.restarts()).toBe(0);
    expect(said).toHaveLength(1);
  }, 30_000);
});
