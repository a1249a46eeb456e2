-- "Orders paid" of the dashboard and its charts counts paid orders only: analytics.daily_volume's
-- orders are the orders a day's payments brought to their expected amount and that stand paid
-- (before, every order that received any payment that day, an underpaid one too).
DROP VIEW analytics.daily_volume;
--> statement-breakpoint
CREATE VIEW analytics.daily_volume AS
SELECT
  m.day,
  m.store_id,
  max(m.store_name) AS store_name,
  bool_or(m.is_universal) AS is_universal,
  count(*) FILTER (WHERE m.kind = 'payment') AS payments,
  count(DISTINCT m.order_id) FILTER (WHERE m.kind = 'payment' AND m.pays_order) AS orders,
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
    -- Note: the payment that brought its order to the expected amount (or to what its merchant
    -- accepted as the whole payment of an underpaid order), of an order that stands paid (paid,
    -- processing, shipped, completed): an underpaid order is no order paid, and an order paid in
    -- two transfers on two days counts once, on the day it was paid.
    (p.order_received_usdc >= d.due_usdc
      AND p.order_received_usdc - p.amount_usdc < d.due_usdc
      AND EXISTS (
        SELECT 1 FROM public.orders o
        WHERE o.id = p.order_id AND o.status IN ('paid', 'processing', 'shipped', 'completed')
      )) AS pays_order,
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
  CROSS JOIN LATERAL (
    SELECT coalesce((SELECT w.accepted_amount_usdc FROM public.payment_wallets w
      WHERE w.order_id = p.order_id), p.expected_amount_usdc) AS due_usdc
  ) d
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
    false,
    NULL
  FROM analytics.settlements l
  WHERE l.mined_at IS NOT NULL
) m
GROUP BY m.day, m.store_id;
--> statement-breakpoint
COMMENT ON VIEW analytics.daily_volume IS 'Per UTC day and store (unsigned links'' orders: one row with store_id null and is_universal): payments received that day, their distinct payers and gross; orders: the orders paid that day (a payment brought the order to its expected amount and the order stands paid: paid, processing, shipped or completed; an underpaid order is not counted); merchant_net, fees and refunds: forwarding legs mined that day; median_settlement_seconds: median time from a payment''s block to the first merchant leg of its order mined after it.';
--> statement-breakpoint
GRANT SELECT ON analytics.daily_volume TO storefront_analyst, storefront_api;
