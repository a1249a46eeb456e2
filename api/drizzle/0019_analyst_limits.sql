-- Analysts' sessions are bounded: at most 4 connections at once, a statement ends after 60 s and an
-- idle transaction after 5 minutes (session defaults: a client may lower them), and they cannot
-- fill the disk with temporary tables or large objects. TEMPORARY is taken from PUBLIC on this
-- database and given back to the processes' roles (the indexer's job functions use one). Note:
-- large object functions belong to the system catalog, so only a superuser migrating can take them
-- from PUBLIC; a managed Postgres's owner migrates without that step and says so.
ALTER ROLE storefront_analyst CONNECTION LIMIT 4;
--> statement-breakpoint
ALTER ROLE storefront_analyst SET statement_timeout = '60s';
--> statement-breakpoint
ALTER ROLE storefront_analyst SET idle_in_transaction_session_timeout = '5min';
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
  EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO storefront_api, storefront_worker, storefront_indexer', current_database());
END $$;
--> statement-breakpoint
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
    REVOKE EXECUTE ON FUNCTION pg_catalog.lo_creat(integer), pg_catalog.lo_create(oid),
      pg_catalog.lo_from_bytea(oid, bytea), pg_catalog.lo_import(text),
      pg_catalog.lo_import(text, oid) FROM PUBLIC;
  ELSE
    RAISE NOTICE 'large object functions stay executable by PUBLIC: only a superuser may revoke them';
  END IF;
END $$;
