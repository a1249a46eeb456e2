// Health of every part the API depends on: database, chain, indexer, settlement addresses, and
// the relayer (its balance read from the chain by address: the API never holds its key) with the
// forwarding backlog. `ok` is about what makes the product unusable now; `alerts` names the rest.
import { sql } from 'drizzle-orm';
import type { PublicClient } from 'viem';
import { indexedTransfer } from '../../chain/indexer.ts';
import { getIndexerStatus } from '../../chain/indexer-status.ts';
import type { Database } from '../../db/client.ts';
import { type RelayerStatus, readRelayerStatus, relayerAlerts } from '../../payments/relayer.ts';
import { type RetentionStatus, readRetentionStatus } from '../../retention/retention-job.ts';

/** What `GET /api/health` reports. */
export interface Health {
  /** Database, chain and indexer up (the relayer's troubles are alerts: payments still work). */
  ok: boolean;
  database: boolean;
  chain: { chainId: number; usdc: string; blockNumber: number | null };
  indexer: { ready: boolean; blockNumber: number | null };
  settlement: {
    relayer: RelayerStatus;
    treasury: string;
    /** Payments a reorg deeper than the depth took away after they counted (last 7 days). */
    reversals: Reversals;
    /** The worker's retention job on the indexer's data: its last run (null: none yet). */
    retention: RetentionStatus | null;
  };
  /** Who the web app's demo link pays (DEMO_PAYOUT_ADDRESS); null: no live demo. */
  demo: { payoutAddress: string | null };
  /** Whether shoppers get their receipt by email (RECEIPTS_BY_EMAIL: the worker has SMTP_URL). */
  receipts: { email: boolean };
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
  demoPayout: string | null;
  receiptsByEmail: boolean;
  /** The relayer alerts below this many forwards' worth of ETH (RELAYER_MIN_FORWARDS). */
  relayerMinForwards: number;
  /** The oldest paid order not forwarded after this many seconds alerts (FORWARDING_LAG_ALERT_S). */
  forwardingLagAlertS: number;
}

const TIMEOUT_MS = 2000;

/** Blocks the indexer may trail the chain before it is an alert (about 10 s of Base). */
const INDEXER_LAG_ALERT_BLOCKS = 50;

/** Reversed payments and what had already been forwarded for them (the platform's loss). */
export interface Reversals {
  /** Orders whose wallet is reversed now. */
  open: number;
  /**
   * USDC that left reversed wallets' addresses by forwarding and is still on the chain, beyond
   * what they hold at the depth (6 decimals).
   */
  lossUsdc: string;
}

async function readReversals(db: Database): Promise<Reversals> {
  // Note: what left the address is read from the indexer's rows (the chain as of its last block),
  // not from the wallet's forwarded amount: a reorg that took the payment usually took its
  // forwarding too, and the database learns that only when reconciliation has looked at the legs.
  // The rows are found by the legs' recipients (indexed), then by the deposit address.
  const [row] = await db
    .execute<{ open: number; loss: string }>(sql`
    select count(*)::int as open,
      coalesce(sum(greatest(r.out_units / 1000000 - r.received, 0)), 0)::numeric(20, 6)::text as loss
    from (
      select w.received_amount_usdc as received,
        coalesce((
          select sum(t.value) from ${indexedTransfer} t
          where t."to" in (
              select lower(ft.to_address) from forwarding_transfers ft where ft.wallet_id = w.id)
            and t."from" = lower(w.wallet_address)), 0) as out_units
      from payment_wallets w where w.status = 'reversed') r`)
    .catch(() => readReversalsFromDatabase(db));
  return { open: row?.open ?? 0, lossUsdc: row?.loss ?? '0.000000' };
}

/**
 * The same from the wallets' forwarded amounts alone, for when the indexer's table cannot be read
 * (no indexer yet): the reversals are still counted; the loss is then the database's view.
 */
function readReversalsFromDatabase(db: Database) {
  return db.execute<{ open: number; loss: string }>(sql`
    select count(*)::int as open,
      coalesce(sum(greatest(forwarded_amount_usdc - received_amount_usdc, 0)), 0)::numeric(20, 6)::text as loss
    from payment_wallets where status = 'reversed'`);
}

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
  const reversals = await withTimeout(readReversals(deps.db)).catch(() => ({
    open: 0,
    lossUsdc: '0.000000',
  }));
  const retention = await withTimeout(readRetentionStatus(deps.db)).catch(() => null);
  const indexerLag =
    blockNumber !== null && indexer.blockNumber !== null ? blockNumber - indexer.blockNumber : 0;
  const alerts = [
    ...(database ? [] : ['the database does not answer']),
    ...(blockNumber === null ? ['the chain (RPC_URL) does not answer'] : []),
    ...(indexer.ready ? [] : ['the indexer is not ready']),
    ...(indexerLag > INDEXER_LAG_ALERT_BLOCKS
      ? [`the indexer is ${indexerLag} blocks behind the chain: payments are seen late`]
      : []),
    ...relayerAlerts(relayer).map((alert) => alert.text),
    ...(reversals.open > 0
      ? [
          `${reversals.open} order(s) reversed: a reorg removed their payment after it counted` +
            (Number(reversals.lossUsdc) > 0
              ? `; ${reversals.lossUsdc} USDC had already been forwarded (the platform's loss)`
              : ''),
        ]
      : []),
    ...(retention?.lastError ? [`the retention job failed: ${retention.lastError}`] : []),
  ];
  return {
    ok: database && blockNumber !== null && indexer.ready,
    database,
    chain: { chainId: deps.chainId, usdc: deps.usdc, blockNumber },
    indexer,
    settlement: { relayer, treasury: deps.treasury, reversals, retention },
    demo: { payoutAddress: deps.demoPayout },
    receipts: { email: deps.receiptsByEmail },
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
