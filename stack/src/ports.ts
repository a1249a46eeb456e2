// The ports of the local commands (`bun run start`, `bun run dev`), checked before anything starts:
// a port in use gets one line naming the variable that moves it, not a timeout a minute later.
import { connect, createServer } from 'node:net';

/** One port a command needs: the variable that sets it and what listens there. */
export interface PortNeed {
  variable: string;
  port: number;
  /** What listens on it, for the message ("the API"). */
  what: string;
}

/**
 * Resolves true when a server could listen on `port`: listens on it for a moment on every address
 * (IPv6 and IPv4), so a server on 127.0.0.1, ::1 or 0.0.0.0 counts, and so does an outgoing
 * connection of this machine holding it as its local port (the services could not bind it either).
 */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** True when a server accepts connections on `port` at 127.0.0.1 or ::1. */
export async function isListenedOn(port: number): Promise<boolean> {
  const accepts = (host: string) =>
    new Promise<boolean>((resolve) => {
      const socket = connect({ port, host });
      const settle = (open: boolean) => {
        socket.destroy();
        resolve(open);
      };
      socket.once('connect', () => settle(true));
      socket.once('error', () => settle(false));
      socket.setTimeout(2000, () => settle(true));
    });
  const [v4, v6] = await Promise.all([accepts('127.0.0.1'), accepts('::1')]);
  return v4 || v6;
}

/** A port number read from `variable`, or `fallback` when it is unset or empty. */
export function portFromEnv(
  env: Record<string, string | undefined>,
  variable: string,
  fallback: number,
): number {
  const value = env[variable];
  return value === undefined || value.trim() === '' ? fallback : Number(value);
}

/**
 * Why the command cannot start, one line per problem (empty when every port is free): a value
 * that is not a port, two parts on one port, or a port something else already listens on.
 * `command` is how the person started it, for the suggested fix (`bun run start`).
 */
export async function portProblems(needs: PortNeed[], command: string): Promise<string[]> {
  const problems: string[] = [];
  const seen = new Map<number, PortNeed>();
  for (const need of needs) {
    const { variable, port, what } = need;
    if (!Number.isInteger(port) || port < 1 || port > 65_535) {
      problems.push(`${variable} must be a port number from 1 to 65535 (${what}).`);
      continue;
    }
    const other = seen.get(port);
    if (other) {
      problems.push(
        `${variable} and ${other.variable} are both ${port}: ${what} and ${other.what} need a port each.`,
      );
      continue;
    }
    seen.set(port, need);
    if (await isPortFree(port)) continue;
    const fix = `set ${variable} to a free port, e.g. \`${variable}=${suggestion(port)} ${command}\``;
    problems.push(
      (await isListenedOn(port))
        ? `Port ${port} (${what}) is already in use: stop what listens there or ${fix}.`
        : // Note: the system also hands ports of 32768-60999 to outgoing connections.
          `Port ${port} (${what}) is held by a connection of this machine, not a server: wait a minute or ${fix}.`,
    );
  }
  return problems;
}

/** A nearby port to suggest (not checked: the person picks). */
function suggestion(port: number): number {
  return port < 65_535 ? port + 1 : port - 1;
}

/** The variables that set the local commands' ports. */
export const PORT_VARIABLES = [
  'PORT',
  'WEB_PORT',
  'POSTGRES_PORT',
  'ANVIL_PORT',
  'INDEXER_PORT',
  'MAIL_PORT',
  'MAIL_INBOX_PORT',
] as const;

const PORTS_ARGUMENT = '--ports=';

/**
 * The port variables the command was started with, once they are out of its environment, so each
 * reaches only the process it is for (the command hands it on by name). Note: `Bun.spawn`, which
 * starts Postgres and anvil, gives a child the environment the process started with, whatever
 * was deleted from process.env since; so a command started with any of them runs itself again
 * without them, the values on its command line, and exits as that run does.
 */
export async function takePortVariables(): Promise<Record<string, string>> {
  const given = process.argv.find((arg) => arg.startsWith(PORTS_ARGUMENT));
  if (given) return JSON.parse(given.slice(PORTS_ARGUMENT.length)) as Record<string, string>;
  const values: Record<string, string> = {};
  const env: Record<string, string | undefined> = { ...process.env };
  for (const variable of PORT_VARIABLES) {
    const value = env[variable];
    if (value !== undefined) values[variable] = value;
    delete env[variable];
  }
  if (Object.keys(values).length === 0) return values;
  const child = Bun.spawn(
    [process.execPath, ...process.argv.slice(1), `${PORTS_ARGUMENT}${JSON.stringify(values)}`],
    { env, stdio: ['inherit', 'inherit', 'inherit'] },
  );
  // Note: Ctrl-C reaches the second run directly (same process group); SIGTERM is passed on.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  process.exit(await child.exited);
}

/** A port that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
