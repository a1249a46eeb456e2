// Health of every part the API depends on: database, chain, indexer, settlement addresses, and
// the relayer (its balance read from the chain by address: the API never holds its key) with the
// forwarding backlog. `ok` is about what makes the product unusable now; `alerts` names the rest.
import { sql } from 'drizzle-orm';
import type { PublicClient } from 'viem';
import { getIndexerStatus } from '../../chain/indexer-status.ts';
import type { Database } from '../../db/client.ts';
import { type RelayerStatus, readRelayerStatus, relayerAlerts } from '../../settlement/relayer.ts';

/** What `GET /api/health` reports. */
export interface Health {
  /** Database, chain and indexer up (the relayer's troubles are alerts: payments still work). */
  ok: boolean;
  database: boolean;
  chain: { chainId: number; usdc: string; blockNumber: number | null };
  indexer: { ready: boolean; blockNumber: number | null };
  settlement: { relayer: RelayerStatus; treasury: string };
  /** One line per alert (a part down, the relayer low on ETH, orders waiting, a forwarding lag). */
  alerts: string[];
}

export interface HealthDeps {
  db: Database;
  chain: PublicClient;
  chainId: number;
  usdc: string;
  indexerUrl: string;
  relayer: string;
  treasury: string;
  /** The relayer alerts below this many forwards' worth of ETH (RELAYER_MIN_FORWARDS). */
  relayerMinForwards: number;
  /** The oldest paid order not forwarded after this many seconds alerts (FORWARDING_LAG_ALERT_S). */
  forwardingLagAlertS: number;
}

const TIMEOUT_MS = 2000;

/** Probes each dependency in parallel; a probe that fails or times out reads as down. */
export async function checkHealth(deps: HealthDeps): Promise<Health> {
  const [database, blockNumber, indexer, relayer] = await Promise.all([
    withTimeout(deps.db.execute(sql`select 1`)).then(
      () => true,
      () => false,
    ),
    withTimeout(deps.chain.getBlockNumber()).then(Number, () => null),
    withTimeout(getIndexerStatus(deps.indexerUrl)).catch(() => ({
      ready: false,
      blockNumber: null,
    })),
    readRelayerStatus({
      db: deps.db,
      client: deps.chain,
      address: deps.relayer,
      minForwards: deps.relayerMinForwards,
      lagAlertS: deps.forwardingLagAlertS,
      timeout: withTimeout,
    }),
  ]);
  const alerts = [
    ...(database ? [] : ['the database does not answer']),
    ...(blockNumber === null ? ['the chain (RPC_URL) does not answer'] : []),
    ...(indexer.ready ? [] : ['the indexer is not ready']),
    ...relayerAlerts(relayer).map((alert) => alert.text),
  ];
  return {
    ok: database && blockNumber !== null && indexer.ready,
    database,
    chain: { chainId: deps.chainId, usdc: deps.usdc, blockNumber },
    indexer,
    settlement: { relayer, treasury: deps.treasury },
    alerts,
  };
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}
