// Health of every part the API depends on: database, chain, indexer, settlement addresses.
import { sql } from 'drizzle-orm';
import type { PublicClient } from 'viem';
import { getIndexerStatus } from '../../chain/indexer-status.ts';
import type { Database } from '../../db/client.ts';

/** What `GET /api/health` reports. */
export interface Health {
  ok: boolean;
  database: boolean;
  chain: { chainId: number; usdc: string; blockNumber: number | null };
  indexer: { ready: boolean; blockNumber: number | null };
  settlement: { relayer: string; treasury: string };
}

export interface HealthDeps {
  db: Database;
  chain: PublicClient;
  chainId: number;
  usdc: string;
  indexerUrl: string;
  relayer: string;
  treasury: string;
}

const TIMEOUT_MS = 2000;

/** Probes each dependency in parallel; a probe that fails or times out reads as down. */
export async function checkHealth(deps: HealthDeps): Promise<Health> {
  const [database, blockNumber, indexer] = await Promise.all([
    withTimeout(deps.db.execute(sql`select 1`)).then(
      () => true,
      () => false,
    ),
    withTimeout(deps.chain.getBlockNumber()).then(Number, () => null),
    withTimeout(getIndexerStatus(deps.indexerUrl)).catch(() => ({
      ready: false,
      blockNumber: null,
    })),
  ]);
  return {
    ok: database && blockNumber !== null && indexer.ready,
    database,
    chain: { chainId: deps.chainId, usdc: deps.usdc, blockNumber },
    indexer,
    settlement: { relayer: deps.relayer, treasury: deps.treasury },
  };
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), TIMEOUT_MS)),
  ]);
}
