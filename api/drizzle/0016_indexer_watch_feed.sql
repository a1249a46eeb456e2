-- What the indexer reads to keep only the transfers of our business, run as the database's owner.
-- The indexer's role reads no table of the product: one function, owned by the owner, hands it
-- the highest deposit index assigned (it derives the addresses from PAYMENT_XPUB itself) and the
-- (payout address, refund address) pairs of merchant-wallet refunds it must see.
-- Without this function the indexer keeps every USDC transfer, as with INDEXER_ALL_TRANSFERS=true.
CREATE SCHEMA IF NOT EXISTS indexer_feed;
--> statement-breakpoint
REVOKE ALL ON SCHEMA indexer_feed FROM PUBLIC;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION indexer_feed.watch_state()
RETURNS json
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, public
AS $$
  SELECT json_build_object(
    -- nextval runs before the wallet row is written and is never rolled back: the sequence is
    -- always at or past every index a shopper was shown (-1 before the first).
    'highestIndex', (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END
                     FROM public.payment_derivation_index_seq),
    'refunds', coalesce((
      SELECT json_agg(json_build_array(lower(w.store_payment_address), lower(r.to_address)))
      FROM public.refunds r JOIN public.payment_wallets w ON w.id = r.wallet_id
      WHERE r.source = 'merchant' AND r.status IN ('ready', 'sending') AND r.to_address IS NOT NULL
    ), '[]'::json))
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION indexer_feed.watch_state() FROM PUBLIC;
--> statement-breakpoint
GRANT USAGE ON SCHEMA indexer_feed TO storefront_indexer;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION indexer_feed.watch_state() TO storefront_indexer;
