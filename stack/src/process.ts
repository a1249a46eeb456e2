// Child processes of the dev command and the tests: prefixed output, stopped by pid.
import { type ChildProcess, spawn } from 'node:child_process';

/** A running child process. */
export interface Service {
  name: string;
  pid: number;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Where each output line goes; defaults to the console, prefixed with the name. */
  log?: (line: string) => void;
}

/** Starts `command args` in its own process group, streaming its output line by line. */
export function startService(
  name: string,
  command: string,
  args: string[],
  options: ServiceOptions = {},
): Service {
  const log = options.log ?? ((line: string) => console.log(`${name.padEnd(8)}| ${line}`));
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`);
  pipeLines(child, log);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const pid = child.pid;
  return { name, pid, exited, stop: () => stopProcessGroup(pid, exited) };
}

function pipeLines(child: ChildProcess, log: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) log(line);
    });
    stream?.on('end', () => buffer && log(buffer));
  }
}

/** SIGTERM to the child's process group, SIGKILL if it is still there after `graceMs`. */
export async function stopProcessGroup(
  pid: number,
  exited: Promise<unknown>,
  graceMs = 5000,
): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A child process kept running: started again whenever it exits on its own. */
export interface SupervisedService {
  name: string;
  /** The pid of the process running now (its process group's). */
  readonly pid: number;
  /** How many times it was started again. */
  restarts(): number;
  /** Stops it by pid and starts it no more. */
  stop(): Promise<void>;
}

export interface SupervisionOptions extends ServiceOptions {
  /** Wait before the first restart; doubled for each exit in a row, up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A run this long counts as healthy: the next exit waits `backoffMs` again. */
  healthyAfterMs?: number;
  /** Where the supervisor's own lines go (an exit, a restart). */
  say?: (line: string) => void;
}

/**
 * Starts `command args` (see `startService`) and starts it again, after a backoff, each time it
 * exits without `stop()`: as a deployment's `restart: unless-stopped` does. Each exit is logged
 * with the process's name and code. `stop()` stops the one running now, by pid.
 */
export function superviseService(
  name: string,
  command: string,
  args: string[],
  options: SupervisionOptions = {},
): SupervisedService {
  const { backoffMs = 1000, maxBackoffMs = 30_000, healthyAfterMs = 30_000 } = options;
  const say = options.say ?? ((line: string) => console.error(line));
  let current = startService(name, command, args, options);
  let startedAt = Date.now();
  let restarts = 0;
  let inARow = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watch = (service: Service) => {
    void service.exited.then((code) => {
      if (stopped || service !== current) return;
      inARow = Date.now() - startedAt >= healthyAfterMs ? 1 : inARow + 1;
      const wait = Math.min(backoffMs * 2 ** (inARow - 1), maxBackoffMs);
      say(`${name} exited (${code ?? 'killed'}); starting it again in ${wait / 1000} s`);
      timer = setTimeout(() => {
        timer = undefined;
        if (stopped) return;
        current = startService(name, command, args, options);
        startedAt = Date.now();
        restarts += 1;
        say(`${name} started again (pid ${current.pid}, restart ${restarts})`);
        watch(current);
      }, wait);
    });
  };
  watch(current);
  return {
    name,
    get pid() {
      return current.pid;
    },
    restarts: () => restarts,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current.stop();
    },
  };
}
