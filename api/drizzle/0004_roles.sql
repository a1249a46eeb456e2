-- Least privilege: one NOLOGIN role per process (API, settlement worker, Ponder indexer) and one
-- for analysts, none a superuser. Roles are cluster-wide and several databases may share a
-- cluster, so each is created only if missing; the grants below are per database. A deployment
-- (or the local stack) then gives each role LOGIN and a password. Run as the database's owner.
DO $$
DECLARE
  role_name text;
BEGIN
  FOREACH role_name IN ARRAY ARRAY['storefront_api', 'storefront_worker', 'storefront_indexer', 'storefront_analyst'] LOOP
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = role_name) THEN
      BEGIN
        EXECUTE format('CREATE ROLE %I NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS', role_name);
      EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL; -- another database of this cluster migrated at the same moment
      END;
    END IF;
  END LOOP;
END $$;
--> statement-breakpoint
-- Note: a migrating owner that is not a superuser (a managed Postgres) needs the indexer role's
-- privileges to set its default privileges, and SET on it to hand it schemas (below). Since
-- Postgres 16 the role's creator holds only ADMIN OPTION on it.
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
     AND NOT pg_has_role(current_user, 'storefront_indexer', 'USAGE') THEN
    IF current_setting('server_version_num')::int >= 160000 THEN
      EXECUTE format('GRANT storefront_indexer TO %I WITH INHERIT TRUE, SET TRUE', current_user);
    ELSE
      EXECUTE format('GRANT storefront_indexer TO %I', current_user);
    END IF;
  END IF;
END $$;
--> statement-breakpoint
-- Note: "$user" would put a schema named after the role first in its search path, and the indexer
-- may create schemas: the API and the worker resolve unqualified names in `public` only.
ALTER ROLE storefront_api SET search_path = public;
--> statement-breakpoint
ALTER ROLE storefront_worker SET search_path = public;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO storefront_api, storefront_worker, storefront_indexer, storefront_analyst', current_database());
  -- Ponder creates its schemas (`indexer`, `ponder_sync`) itself.
  EXECUTE format('GRANT CREATE ON DATABASE %I TO storefront_indexer', current_database());
END $$;
--> statement-breakpoint
-- Schema public: only the API and the worker use it (PUBLIC keeps no CREATE on Postgres < 15).
REVOKE ALL ON SCHEMA public FROM PUBLIC;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO storefront_api, storefront_worker;
--> statement-breakpoint
-- The API: every table of the product and its sequences.
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO storefront_api;
--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO storefront_api;
--> statement-breakpoint
-- The worker: detection, forwarding and the webhook outbox; it reads stores (payout address,
-- webhook URL and secret) and never users, sessions or idempotency keys.
GRANT SELECT ON stores TO storefront_worker;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON orders, products, payment_wallets, payment_events, forwarding_transfers, webhook_deliveries, webhook_attempts TO storefront_worker;
--> statement-breakpoint
-- Tables and sequences of later migrations (created by the migrating owner) get the same rights;
-- a later migration revokes what the worker must not have.
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO storefront_api, storefront_worker;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO storefront_api, storefront_worker;
--> statement-breakpoint
-- The API and the worker check at start that every migration is applied.
GRANT USAGE ON SCHEMA drizzle TO storefront_api, storefront_worker;
--> statement-breakpoint
GRANT SELECT ON drizzle.__drizzle_migrations TO storefront_api, storefront_worker;
--> statement-breakpoint
-- What Ponder creates (as storefront_indexer), now and after it drops and re-creates its tables,
-- is readable by the API, the worker and analysts (USDC transfers: public chain data).
ALTER DEFAULT PRIVILEGES FOR ROLE storefront_indexer GRANT USAGE ON SCHEMAS TO storefront_api, storefront_worker, storefront_analyst;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES FOR ROLE storefront_indexer GRANT SELECT ON TABLES TO storefront_api, storefront_worker, storefront_analyst;
--> statement-breakpoint
-- Ponder's schemas of a database that ran it before this migration (as the owner) are handed to
-- the indexer's role with everything in them, then shared like new ones.
DO $$
DECLARE
  s text;
  r record;
BEGIN
  FOREACH s IN ARRAY ARRAY['indexer', 'ponder_sync'] LOOP
    CONTINUE WHEN NOT EXISTS (SELECT FROM pg_namespace WHERE nspname = s);
    EXECUTE format('ALTER SCHEMA %I OWNER TO storefront_indexer', s);
    -- Note: tables first; their indexes and owned sequences follow them.
    FOR r IN
      SELECT c.oid::regclass AS name, c.relkind FROM pg_class c
      WHERE c.relnamespace = s::regnamespace AND c.relkind IN ('r', 'p', 'f', 'v', 'm', 'S')
      ORDER BY c.relkind IN ('r', 'p') DESC
    LOOP
      CONTINUE WHEN (SELECT relowner FROM pg_class WHERE oid = r.name) = 'storefront_indexer'::regrole::oid;
      EXECUTE format('ALTER %s %s OWNER TO storefront_indexer',
        CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
          WHEN 'S' THEN 'SEQUENCE' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, r.name);
    END LOOP;
    FOR r IN SELECT p.oid::regprocedure AS name FROM pg_proc p WHERE p.pronamespace = s::regnamespace LOOP
      EXECUTE format('ALTER ROUTINE %s OWNER TO storefront_indexer', r.name);
    END LOOP;
    -- Ponder's only types of their own are enums (`onchainEnum`).
    FOR r IN SELECT t.oid::regtype AS name FROM pg_type t WHERE t.typnamespace = s::regnamespace AND t.typtype = 'e' LOOP
      EXECUTE format('ALTER TYPE %s OWNER TO storefront_indexer', r.name);
    END LOOP;
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO storefront_api, storefront_worker, storefront_analyst', s);
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO storefront_api, storefront_worker, storefront_analyst', s);
  END LOOP;
END $$;
