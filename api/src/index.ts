// API entry point: validate config, migrate, serve on PORT, stop cleanly on SIGINT/SIGTERM.
import { createPublicClient, http } from 'viem';
import { createApp } from './app.ts';
import { ConfigError, loadApiConfig } from './config.ts';
import { createDatabase, migrateDatabase } from './db/client.ts';

async function main() {
  const config = loadApiConfig();
  await migrateDatabase(config.databaseUrl);
  const database = createDatabase(config.databaseUrl);
  const chain = createPublicClient({ transport: http(config.chain.rpcUrl) });
  const app = createApp({ db: database.db, config, chain }).listen({
    port: config.port,
    hostname: '0.0.0.0',
  });
  console.log(`api: listening on http://localhost:${config.port}`);
  const stop = async () => {
    await app.stop();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? `api: ${error.message}` : error);
  process.exit(1);
});
