// Retention of the indexer's data (the privacy policy: blockchain logs kept 12 months). With
// INDEXER_ALL_TRANSFERS=true the indexer stores every USDC transfer of the chain (by default only
// ours: indexer/src/watch.ts); those that touch none of our deposit addresses (neither to nor from
// one: other people's transfers, merchant-wallet refunds) are deleted once mined more than
// RETENTION_MONTHS ago, a small batch per transaction with a pause between, oldest first.
// Transfers of our orders are kept: they are the payments and forwardings the analytics views and
// the accounting export show. Each run also puts back the analysts' indexes if Ponder re-created
// its table, and records itself for /api/health. Note: the worker's role cannot write the
// indexer's table; it deletes through `analytics_jobs.delete_indexed_transfers`, owned by the
// indexer's role, which only deletes the rows named and only when older than the cut-off.
import { sql } from 'drizzle-orm';
import { INDEXER_SCHEMA } from '../chain/indexer.ts';
import type { Database } from '../db/client.ts';
import { startWakeableLoop } from '../loops/wakeable-loop.ts';

/** The job's settings (RETENTION_* variables of the worker). */
export interface RetentionConfig {
  /** Months a transfer unrelated to our orders is kept; 0 turns deletion off. */
  months: number;
  /** Transfers deleted per transaction. */
  batchSize: number;
  /** Pause between two batches, so indexing and queries always get their turn. */
  pauseMs: number;
  /** Time between runs. */
  intervalMs: number;
  /** Most batches of one run (the rest waits for the next run). */
  maxBatches: number;
}

/** RETENTION_MONTHS (12), RETENTION_BATCH_SIZE (1000), RETENTION_PAUSE_MS (100), RETENTION_INTERVAL_MS (1 h). */
export function retentionConfig(env: Record<string, string | undefined>): RetentionConfig {
  const whole = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    }
    return value;
  };
  return {
    months: whole('RETENTION_MONTHS', 12, 0, 1200),
    batchSize: whole('RETENTION_BATCH_SIZE', 1000, 1, 50_000),
    pauseMs: whole('RETENTION_PAUSE_MS', 100, 0, 60_000),
    intervalMs: whole('RETENTION_INTERVAL_MS', 3_600_000, 1000, 86_400_000),
    maxBatches: whole('RETENTION_MAX_BATCHES', 1000, 1, 1_000_000),
  };
}

/** What one run did. */
export interface RetentionRun {
  /** False when another worker's run holds the job. */
  ran: boolean;
  deleted: number;
  indexesCreated: number;
  cutoff: string | null;
}

/** Seconds of a run after which another worker may take the job over (it died mid-run). */
const STALE_RUN_S = 3600;

/** One run: the indexes, then the old unrelated transfers in batches. */
export async function runRetention(
  db: Database,
  config: RetentionConfig,
  options: { stopping?: () => boolean; sleep?: (ms: number) => Promise<void> } = {},
): Promise<RetentionRun> {
  const client = db.$client;
  const sleep = options.sleep ?? ((ms: number) => Bun.sleep(ms));
  // Note: one run at a time across worker replicas: a run claims the status row.
  const claimed = await client`
    insert into analytics_jobs.retention_status as s (window_months, started_at)
    values (${config.months}, now())
    on conflict (id) do update set window_months = excluded.window_months,
      started_at = excluded.started_at, finished_at = null, last_error = null
    where s.finished_at is not null
      or s.started_at < now() - make_interval(secs => ${STALE_RUN_S})
    returning 1`;
  if (claimed.length === 0) return { ran: false, deleted: 0, indexesCreated: 0, cutoff: null };
  let deleted = 0;
  let cutoff: string | null = null;
  try {
    const [made] = await client<{ n: number }[]>`
      select analytics_jobs.ensure_transfer_indexes() as n`;
    const indexesCreated = made?.n ?? 0;
    const exists = await client`select to_regclass(${`${INDEXER_SCHEMA}.transfer`}) as t`;
    if (config.months > 0 && exists[0]?.t !== null) {
      const [row] = await client<{ cutoff: string; unix: string }[]>`
        select to_json(now() - make_interval(months => ${config.months}))#>>'{}' as cutoff,
          floor(extract(epoch from now() - make_interval(months => ${config.months})))::text as unix`;
      cutoff = row?.cutoff ?? null;
      const before = row?.unix ?? '0';
      // Keyset over (block_timestamp, id): kept rows are never read twice in a run.
      let after = { time: '-1', id: '' };
      for (let batch = 0; batch < config.maxBatches && !options.stopping?.(); batch++) {
        const rows = await client<{ id: string; block_timestamp: string }[]>`
          select t.id, t.block_timestamp::text as block_timestamp from ${client(INDEXER_SCHEMA)}.transfer t
          where t.block_timestamp < ${before}::numeric
            and (t.block_timestamp, t.id) > (${after.time}::numeric, ${after.id})
          order by t.block_timestamp, t.id
          limit ${config.batchSize}`;
        if (rows.length === 0) break;
        const last = rows[rows.length - 1];
        if (last) after = { time: last.block_timestamp, id: last.id };
        const ids = rows.map((r) => r.id);
        // Note: "touches a deposit address" is asked of the batch's rows only (lower() index).
        const unrelated = await client<{ id: string }[]>`
          select t.id from ${client(INDEXER_SCHEMA)}.transfer t
          where t.id = any(${ids}::text[])
            and not exists (select from payment_wallets w where lower(w.wallet_address) = t."to")
            and not exists (select from payment_wallets w where lower(w.wallet_address) = t."from")`;
        if (unrelated.length > 0) {
          const [done] = await client<{ n: number }[]>`
            select analytics_jobs.delete_indexed_transfers(
              ${unrelated.map((r) => r.id)}::text[], ${before}::numeric) as n`;
          deleted += done?.n ?? 0;
          await client`
            update analytics_jobs.retention_status set rows_deleted = ${deleted}, cutoff = ${cutoff}::timestamptz`;
        }
        if (rows.length < config.batchSize) break;
        await sleep(config.pauseMs);
      }
    }
    await client`
      update analytics_jobs.retention_status set finished_at = now(), cutoff = ${cutoff}::timestamptz,
        rows_deleted = ${deleted}, rows_deleted_total = rows_deleted_total + ${deleted}`;
    return { ran: true, deleted, indexesCreated, cutoff };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await client`
      update analytics_jobs.retention_status set finished_at = now(), last_error = ${message},
        rows_deleted = ${deleted}, rows_deleted_total = rows_deleted_total + ${deleted}`.catch(
      () => undefined,
    );
    throw error;
  }
}

/** The job as one of the worker's loops: a run at start, then every `intervalMs`. */
export function startRetentionJob(
  db: Database,
  config: RetentionConfig,
  log: (line: string) => void,
) {
  let stopped = false;
  const loop = startWakeableLoop(
    'retention',
    config.intervalMs,
    async () => {
      const run = await runRetention(db, config, { stopping: () => stopped });
      if (run.indexesCreated > 0) {
        log(`retention: put back ${run.indexesCreated} analytics index(es) on the indexer's table`);
      }
      if (run.deleted > 0) {
        log(
          `retention: deleted ${run.deleted} indexed transfer(s) older than ${config.months} months that touch no deposit address`,
        );
      }
      return false;
    },
    log,
  );
  return {
    stop: async () => {
      stopped = true;
      await loop.stop();
    },
  };
}

/** The last run as /api/health shows it (null before the first run). */
export interface RetentionStatus {
  windowMonths: number;
  lastRunAt: string;
  finishedAt: string | null;
  cutoff: string | null;
  rowsDeleted: number;
  rowsDeletedTotal: number;
  lastError: string | null;
}

/** Reads the job's last run. */
export async function readRetentionStatus(db: Database): Promise<RetentionStatus | null> {
  const [row] = await db.execute<{
    window_months: number;
    started_at: string;
    finished_at: string | null;
    cutoff: string | null;
    rows_deleted: string;
    rows_deleted_total: string;
    last_error: string | null;
  }>(sql`
    select window_months, to_json(started_at)#>>'{}' as started_at,
      to_json(finished_at)#>>'{}' as finished_at, to_json(cutoff)#>>'{}' as cutoff,
      rows_deleted::text, rows_deleted_total::text, last_error
    from analytics_jobs.retention_status`);
  if (!row) return null;
  const iso = (text: string | null) => (text === null ? null : new Date(text).toISOString());
  return {
    windowMonths: row.window_months,
    lastRunAt: iso(row.started_at) ?? '',
    finishedAt: iso(row.finished_at),
    cutoff: iso(row.cutoff),
    rowsDeleted: Number(row.rows_deleted),
    rowsDeletedTotal: Number(row.rows_deleted_total),
    lastError: row.last_error,
  };
}
