-- Retention's delete no longer trusts its caller's cut-off: whatever the worker asks, a transfer
-- mined in the last 30 days is never deleted (the shortest retention, RETENTION_MONTHS=1, keeps
-- at least that), so a worker's role in the wrong hands cannot erase recent payments from the
-- indexer. Same signature, owner and grants (the migrator is a member of the indexer's role).
CREATE OR REPLACE FUNCTION analytics_jobs.delete_indexed_transfers(ids text[], before_unix numeric) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  deleted integer;
  cutoff numeric := least(before_unix, extract(epoch from now() - interval '30 days'));
BEGIN
  IF to_regclass('indexer.transfer') IS NULL THEN
    RETURN 0;
  END IF;
  -- Note: Ponder's statement trigger on its tables (live queries) records the table in a
  -- temporary table of Ponder's own sessions; this session gets one, dropped at commit.
  CREATE TEMP TABLE IF NOT EXISTS live_query_tables (table_name text PRIMARY KEY) ON COMMIT DROP;
  EXECUTE 'DELETE FROM indexer.transfer WHERE id = ANY($1) AND block_timestamp < $2'
    USING ids, cutoff;
  GET DIAGNOSTICS deleted = ROW_COUNT;
  RETURN deleted;
END $$;
