// What `bun run start` and `bun run dev` share: the stack's ports from their variables, the check
// that they are free before anything starts, and the console lines of the stack's parts.
import { type PortNeed, portFromEnv, portProblems } from '../stack/src/ports.ts';

/** The ports of the stack and the API, from the variables taken out of the environment. */
export function stackPorts(portEnv: Record<string, string>) {
  return {
    postgres: portFromEnv(portEnv, 'POSTGRES_PORT', 54321),
    anvil: portFromEnv(portEnv, 'ANVIL_PORT', 8545),
    indexer: portFromEnv(portEnv, 'INDEXER_PORT', 42069),
    api: portFromEnv(portEnv, 'PORT', 3000),
  };
}

/**
 * Exits with one line per busy port, naming the variable that moves it, before anything starts.
 * `own` are the command's own needs (the API, Vite); the stack's parts are added unless the
 * environment names a real database or chain.
 */
export async function exitOnBusyPorts(
  own: PortNeed[],
  ports: ReturnType<typeof stackPorts>,
  env: Record<string, string | undefined>,
  command: string,
): Promise<void> {
  const problems = await portProblems(
    [
      ...own,
      ...(env.DATABASE_URL
        ? []
        : [{ variable: 'POSTGRES_PORT', port: ports.postgres, what: 'the embedded Postgres' }]),
      ...(env.RPC_URL
        ? []
        : [{ variable: 'ANVIL_PORT', port: ports.anvil, what: 'the local chain' }]),
      { variable: 'INDEXER_PORT', port: ports.indexer, what: 'the indexer' },
    ],
    `bun run ${command}`,
  );
  if (problems.length === 0) return;
  for (const problem of problems) console.error(`${command.padEnd(8)}| ${problem}`);
  process.exit(1);
}

/** Prints a line of a stack part, leaving out Postgres's chatter and empty indexed blocks. */
export function stackLog(part: string, line: string): void {
  if (part === 'postgres' && !/ERROR|FATAL|PANIC/.test(line)) return;
  if (part === 'indexer' && /Indexed block .*event_count=0/.test(line)) return;
  console.log(`${part.padEnd(8)}| ${line}`);
}
