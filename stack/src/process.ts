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
