-- The watch feed also names the deposit wallet with the highest index and its address, so the
-- indexer can check that its PAYMENT_XPUB derives the addresses the API assigns: with another key
-- it would drop every payment; on a mismatch it keeps every transfer and says why.
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
    ), '[]'::json),
    'check', (SELECT json_build_array(w.derivation_index, lower(w.wallet_address))
              FROM public.payment_wallets w ORDER BY w.derivation_index DESC LIMIT 1))
$$;
