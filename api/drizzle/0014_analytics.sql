-- Analytics: a schema of documented views any SQL client can read as storefront_analyst (and the
-- API, for the merchants' dashboard), joining the indexer's USDC transfers with orders, deposit
-- addresses and forwarding legs. Amounts in USDC are numeric with 6 decimals, addresses lowercase.
--
-- Note: Ponder drops its tables (DROP TABLE/SCHEMA ... CASCADE) when it re-indexes from scratch,
-- and a view over `indexer.transfer` would be dropped with them. The views therefore read the
-- indexer through `analytics.indexed_transfers()`, a SQL function whose body is bound when a
-- query runs, not when it is created (no dependency is recorded), and which Postgres inlines into
-- the query (filters and joins reach the table's indexes). Re-indexing drops nothing of ours.
CREATE SCHEMA IF NOT EXISTS analytics;
--> statement-breakpoint
COMMENT ON SCHEMA analytics IS 'Read-only views for analysts: payments, settlements, daily_volume. Amounts in USDC (6 decimals), addresses lowercase, times UTC.';
--> statement-breakpoint
-- The indexer's table may not exist yet (Ponder creates it at its first start).
SET LOCAL check_function_bodies = off;
--> statement-breakpoint
-- Note: LANGUAGE sql, STABLE, not SECURITY DEFINER and without SET: what lets Postgres inline it.
CREATE OR REPLACE FUNCTION analytics.indexed_transfers()
RETURNS TABLE (
  id text,
  "from" text,
  "to" text,
  value numeric(78, 0),
  block_number numeric(78, 0),
  block_timestamp numeric(78, 0),
  tx_hash text,
  log_index integer
)
LANGUAGE sql STABLE
AS 'SELECT t.id, t."from", t."to", t.value, t.block_number, t.block_timestamp, t.tx_hash, t.log_index FROM indexer.transfer t';
--> statement-breakpoint
SET LOCAL check_function_bodies = on;
--> statement-breakpoint
COMMENT ON FUNCTION analytics.indexed_transfers() IS 'Every indexed USDC Transfer (the indexer''s table, bound at query time so re-indexing never drops the views). value in base units; block_timestamp in Unix seconds.';
--> statement-breakpoint
CREATE VIEW analytics.payments AS
SELECT
  to_timestamp(t.block_timestamp::double precision) AS block_time,
  t.block_number,
  t.tx_hash,
  t.log_index,
  t."from" AS payer,
  t."to" AS deposit_address,
  (t.value / 1000000)::numeric(38, 6) AS amount_usdc,
  t.value AS amount_base_units,
  o.id AS order_id,
  s.id AS store_id,
  s.name AS store_name,
  (o.store_id = 'universal') AS is_universal,
  w.external_order_id,
  w.expected_amount_usdc::numeric(38, 6) AS expected_amount_usdc,
  (c.received / 1000000)::numeric(38, 6) AS order_received_usdc,
  CASE
    WHEN w.expired_at IS NOT NULL AND t.block_timestamp > extract(epoch FROM w.expired_at) THEN 'late'
    WHEN c.received < w.expected_amount_usdc * 1000000 THEN 'under'
    WHEN c.received = w.expected_amount_usdc * 1000000 THEN 'exact'
    ELSE 'over'
  END AS classification
FROM analytics.indexed_transfers() t
JOIN public.payment_wallets w ON lower(w.wallet_address) = t."to"
JOIN public.orders o ON o.id = w.order_id
LEFT JOIN public.stores s ON o.store_id <> 'universal' AND s.id::text = o.store_id
CROSS JOIN LATERAL (
  SELECT sum(p.value) AS received
  FROM analytics.indexed_transfers() p
  WHERE p."to" = t."to"
    AND (p.block_number < t.block_number OR (p.block_number = t.block_number AND p.log_index <= t.log_index))
) c;
--> statement-breakpoint
COMMENT ON VIEW analytics.payments IS 'One row per USDC transfer that reached an order''s deposit address. classification: late (mined after the payment window closed), under (the order had received less than expected after it), exact (it completed the expected amount exactly), over (the order had received more than expected after it). store_id and store_name are null for universal orders (is_universal).';
--> statement-breakpoint
CREATE VIEW analytics.settlements AS
SELECT
  f.wallet_id,
  w.order_id,
  s.id AS store_id,
  s.name AS store_name,
  (o.store_id = 'universal') AS is_universal,
  w.external_order_id,
  f.round,
  f.leg,
  f.mode,
  lower(f.from_address) AS from_address,
  lower(f.to_address) AS to_address,
  (f.value / 1000000)::numeric(38, 6) AS amount_usdc,
  f.value AS amount_base_units,
  lower(f.tx_hash) AS tx_hash,
  f.status,
  f.created_at AS submitted_at,
  m.mined_at,
  f.confirmed_at,
  f.block_number,
  (f.gas_cost_wei / 1000000000000000000)::numeric(38, 18) AS gas_cost_eth,
  f.gas_cost_wei
FROM public.forwarding_transfers f
JOIN public.payment_wallets w ON w.id = f.wallet_id
JOIN public.orders o ON o.id = w.order_id
LEFT JOIN public.stores s ON o.store_id <> 'universal' AND s.id::text = o.store_id
LEFT JOIN LATERAL (
  SELECT min(to_timestamp(x.block_timestamp::double precision)) AS mined_at
  FROM analytics.indexed_transfers() x
  WHERE x.tx_hash = lower(f.tx_hash) AND x."to" = lower(f.to_address) AND x.value = f.value
) m ON true
WHERE f.leg <> 'gas';
--> statement-breakpoint
COMMENT ON VIEW analytics.settlements IS 'One row per USDC leg the worker sends from a deposit address: leg merchant (the merchant''s 98%), fee (the platform''s 2%) or refund. submitted_at: when the worker planned and signed it; mined_at: the block time of its indexed transfer (null until indexed); confirmed_at: when the worker saw it at the confirmation depth. gas_cost_eth: gas used times its price (plus the L1 fee on Base).';
--> statement-breakpoint
-- Note: one GROUP BY over a UNION ALL (not a join of two aggregates), so a filter on day or
-- store_id reaches both branches before the per-payment work.
CREATE VIEW analytics.daily_volume AS
SELECT
  m.day,
  m.store_id,
  max(m.store_name) AS store_name,
  bool_or(m.is_universal) AS is_universal,
  count(*) FILTER (WHERE m.kind = 'payment') AS payments,
  count(DISTINCT m.order_id) FILTER (WHERE m.kind = 'payment') AS orders,
  count(DISTINCT m.payer) AS distinct_payers,
  (coalesce(sum(m.amount) FILTER (WHERE m.kind = 'payment'), 0) / 1000000)::numeric(38, 6) AS gross_usdc,
  (coalesce(sum(m.amount) FILTER (WHERE m.kind = 'merchant'), 0) / 1000000)::numeric(38, 6) AS merchant_net_usdc,
  (coalesce(sum(m.amount) FILTER (WHERE m.kind = 'fee'), 0) / 1000000)::numeric(38, 6) AS fees_usdc,
  (coalesce(sum(m.amount) FILTER (WHERE m.kind = 'refund'), 0) / 1000000)::numeric(38, 6) AS refunds_usdc,
  round((percentile_cont(0.5) WITHIN GROUP (ORDER BY m.settle_seconds))::numeric, 1) AS median_settlement_seconds
FROM (
  SELECT
    (p.block_time AT TIME ZONE 'UTC')::date AS day,
    p.store_id,
    p.store_name,
    p.is_universal,
    'payment' AS kind,
    p.order_id,
    p.payer,
    p.amount_base_units AS amount,
    (
      SELECT extract(epoch FROM min(to_timestamp(x.block_timestamp::double precision)) - p.block_time)
      FROM public.payment_wallets w
      JOIN public.forwarding_transfers f ON f.wallet_id = w.id AND f.leg = 'merchant'
      -- Note: by transaction (its index); a leg's transaction holds one transfer of its value.
      JOIN analytics.indexed_transfers() x ON x.tx_hash = lower(f.tx_hash) AND x.value = f.value
      WHERE w.order_id = p.order_id
        AND to_timestamp(x.block_timestamp::double precision) >= p.block_time
    ) AS settle_seconds
  FROM analytics.payments p
  UNION ALL
  SELECT
    (l.mined_at AT TIME ZONE 'UTC')::date,
    l.store_id,
    l.store_name,
    l.is_universal,
    l.leg,
    l.order_id,
    NULL,
    l.amount_base_units,
    NULL
  FROM analytics.settlements l
  WHERE l.mined_at IS NOT NULL
) m
GROUP BY m.day, m.store_id;
--> statement-breakpoint
COMMENT ON VIEW analytics.daily_volume IS 'Per UTC day and store (universal orders: one row with store_id null and is_universal): payments received that day, the orders they paid, their distinct payers and gross; merchant_net, fees and refunds: forwarding legs mined that day; median_settlement_seconds: median time from a payment''s block to the first merchant leg of its order mined after it.';
--> statement-breakpoint
-- Worker jobs on the indexer's table, which only its role (the table's owner) may change: SECURITY
-- DEFINER functions owned by that role, callable by the worker alone.
CREATE SCHEMA IF NOT EXISTS analytics_jobs;
--> statement-breakpoint
REVOKE ALL ON SCHEMA analytics_jobs FROM PUBLIC;
--> statement-breakpoint
-- The analysts' indexes on the indexer's table: payer, time and transaction. Note: Ponder re-creates
-- its table without them after a re-index; the worker's retention job calls this on every run.
CREATE FUNCTION analytics_jobs.ensure_transfer_indexes() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  created integer := 0;
  spec text[];
BEGIN
  IF to_regclass('indexer.transfer') IS NULL THEN
    RETURN 0;
  END IF;
  FOREACH spec SLICE 1 IN ARRAY ARRAY[
    ARRAY['analytics_transfer_from_idx', 'from'],
    ARRAY['analytics_transfer_block_timestamp_idx', 'block_timestamp'],
    ARRAY['analytics_transfer_tx_hash_idx', 'tx_hash']
  ] LOOP
    -- Note: a table of another shape (an older indexer) gets the indexes its columns allow.
    IF to_regclass('indexer.' || spec[1]) IS NULL AND EXISTS (
      SELECT FROM pg_attribute
      WHERE attrelid = 'indexer.transfer'::regclass AND attname = spec[2] AND NOT attisdropped
    ) THEN
      EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON indexer.transfer (%I)', spec[1], spec[2]);
      created := created + 1;
    END IF;
  END LOOP;
  RETURN created;
END $$;
--> statement-breakpoint
-- Retention: deletes the given indexed transfers, only those mined before `before_unix`. The
-- worker picks them (transfers touching none of our deposit addresses), in small batches.
CREATE FUNCTION analytics_jobs.delete_indexed_transfers(ids text[], before_unix numeric) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  deleted integer;
BEGIN
  IF to_regclass('indexer.transfer') IS NULL THEN
    RETURN 0;
  END IF;
  -- Note: Ponder's statement trigger on its tables (live queries) records the table in a
  -- temporary table of Ponder's own sessions; this session gets one, dropped at commit.
  CREATE TEMP TABLE IF NOT EXISTS live_query_tables (table_name text PRIMARY KEY) ON COMMIT DROP;
  EXECUTE 'DELETE FROM indexer.transfer WHERE id = ANY($1) AND block_timestamp < $2'
    USING ids, before_unix;
  GET DIAGNOSTICS deleted = ROW_COUNT;
  RETURN deleted;
END $$;
--> statement-breakpoint
-- Note: the new owner needs CREATE on the schema at this moment only.
GRANT CREATE ON SCHEMA analytics_jobs TO storefront_indexer;
--> statement-breakpoint
ALTER FUNCTION analytics_jobs.ensure_transfer_indexes() OWNER TO storefront_indexer;
--> statement-breakpoint
ALTER FUNCTION analytics_jobs.delete_indexed_transfers(text[], numeric) OWNER TO storefront_indexer;
--> statement-breakpoint
REVOKE CREATE ON SCHEMA analytics_jobs FROM storefront_indexer;
--> statement-breakpoint
REVOKE ALL ON FUNCTION analytics_jobs.ensure_transfer_indexes(), analytics_jobs.delete_indexed_transfers(text[], numeric) FROM PUBLIC;
--> statement-breakpoint
GRANT USAGE ON SCHEMA analytics_jobs TO storefront_worker;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION analytics_jobs.ensure_transfer_indexes(), analytics_jobs.delete_indexed_transfers(text[], numeric) TO storefront_worker;
--> statement-breakpoint
-- The retention job's last run (one row), written by the worker and shown by /api/health.
CREATE TABLE analytics_jobs.retention_status (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  -- RETENTION_MONTHS of the run (0: off)
  window_months integer NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  -- transfers mined before this time and touching none of our deposit addresses were deleted
  cutoff timestamptz,
  rows_deleted bigint NOT NULL DEFAULT 0,
  rows_deleted_total bigint NOT NULL DEFAULT 0,
  last_error text
);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON analytics_jobs.retention_status TO storefront_worker;
--> statement-breakpoint
GRANT USAGE ON SCHEMA analytics_jobs TO storefront_api;
--> statement-breakpoint
GRANT SELECT ON analytics_jobs.retention_status TO storefront_api;
--> statement-breakpoint
-- The indexes now, when the indexer's table exists (as its owner, through the function).
SELECT analytics_jobs.ensure_transfer_indexes();
--> statement-breakpoint
-- Who reads the views: analysts, and the API (the merchants' dashboard and accounting export).
REVOKE ALL ON SCHEMA analytics FROM PUBLIC;
--> statement-breakpoint
GRANT USAGE ON SCHEMA analytics TO storefront_analyst, storefront_api;
--> statement-breakpoint
GRANT SELECT ON ALL TABLES IN SCHEMA analytics TO storefront_analyst, storefront_api;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION analytics.indexed_transfers() TO storefront_analyst, storefront_api;
