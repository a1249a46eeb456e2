// API entry point: validate config, migrate (or check the migrations), serve on PORT, stop cleanly
// on SIGINT/SIGTERM.
import { depositAddressDeriver } from '@store/shared/deposit-address';
import { createPublicClient, http } from 'viem';
import { createApp } from './app.ts';
import { ConfigError, loadApiConfig } from './config.ts';
import { createDatabase, migrateOrCheckDatabase } from './db/client.ts';
import { surviveDroppedDatabaseSockets } from './db/dropped-socket.ts';
import { DEMO, seedDemoMerchant } from './demo-seed.ts';
import { SERVER_MAX_BODY_BYTES } from './http/body-limit.ts';
import { pruneIdempotencyKeys } from './http/idempotency.ts';
import { requestsFinished } from './http/in-flight.ts';
import { pruneRateLimits } from './http/rate-limit.ts';
import { pruneExpiredSessions } from './modules/auth/service.ts';

const HOUR_MS = 60 * 60 * 1000;
/** Longest a stopping API waits for the requests it is handling. */
const SHUTDOWN_GRACE_MS = 5000;

async function main() {
  // Note: a restart of Postgres must not end the API (requests fail meanwhile, then go on).
  surviveDroppedDatabaseSockets((line) => console.error(`api: ${line}`));
  const config = loadApiConfig();
  try {
    depositAddressDeriver(config.paymentXpub);
  } catch (error) {
    throw new ConfigError(`\`PAYMENT_XPUB\` cannot be used: ${(error as Error).message}`);
  }
  // Note: its own role cannot change the schema; only MIGRATION_DATABASE_URL (the owner's) can.
  await migrateOrCheckDatabase(config);
  const database = createDatabase(config.databaseUrl);
  if (config.localMode && (await seedDemoMerchant(database.db)))
    console.log(`api: demo merchant created: sign in as ${DEMO.username} / ${DEMO.password}`);
  const chain = createPublicClient({ transport: http(config.chain.rpcUrl) });
  const shutdown = new AbortController();
  const app = createApp({ db: database.db, config, chain, shutdown: shutdown.signal }).listen({
    port: config.port,
    hostname: '0.0.0.0',
    maxRequestBodySize: SERVER_MAX_BODY_BYTES,
  });
  console.log(`api: listening on http://localhost:${config.port}`);
  const prune = setInterval(() => {
    Promise.all([
      pruneIdempotencyKeys(database.db),
      pruneExpiredSessions(database.db),
      pruneRateLimits(database.db),
    ]).catch((error) =>
      console.error('api: pruning expired keys, sessions and rate limits failed', error),
    );
  }, HOUR_MS);
  prune.unref();
  const stop = async () => {
    clearInterval(prune);
    shutdown.abort();
    await app.stop();
    // Note: a handler whose client went away is still running; its queries finish first.
    const left = await requestsFinished(SHUTDOWN_GRACE_MS);
    if (left > 0) console.error(`api: stopping with ${left} request(s) still running`);
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
