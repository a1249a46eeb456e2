// The shared context of the API: what every route module needs (database, settings, chain
// client), built once at start-up (or by a test). It sits below app.ts and the modules, so it
// imports nothing from them.
import type { PublicClient } from 'viem';
import type { ApiConfig } from './config.ts';
import type { Database } from './db/client.ts';

/** Everything the routes need, built once at start-up (or by a test). */
export interface AppDeps {
  db: Database;
  config: ApiConfig;
  chain: PublicClient;
  /**
   * Aborted when the process begins to stop (before the server stops taking requests): what
   * holds a connection open indefinitely (payment status streams) closes then, so the server's
   * stop can finish.
   */
  shutdown?: AbortSignal;
}
