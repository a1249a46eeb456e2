-- Every order names the store it pays. Orders of a store's signed payment link were stored with
-- store_id 'universal' (a text column without a foreign key) and the link's store, payee and
-- webhook URL in metadata, so they were in none of the store's orders, figures or books. Now:
-- store_id is a nullable foreign key to stores (null only for an unsigned link's order, which pays
-- no store of ours), `source` says where the order came from, and a link's payee and webhook URL
-- are columns. The copies go: metadata's isUniversal, signed, linkStoreId, webhookUrl,
-- storePaymentAddress, externalPaymentAddress, and the deposit wallet's is_universal and
-- webhook_url. Order ids do not change.
--
-- The analytics views read orders.store_id; they are dropped here and made again below.
DROP VIEW analytics.daily_volume;
--> statement-breakpoint
DROP VIEW analytics.settlements;
--> statement-breakpoint
DROP VIEW analytics.payments;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "source" text DEFAULT 'storefront' NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payee_address" text;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "webhook_url" text;
--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "store_id" DROP NOT NULL;
--> statement-breakpoint
-- Orders of a universal link: a signed one belongs to the store that signed it (its link secret
-- checked the link, which had to pay that store's payout address); an unsigned one to no store.
-- The payee and webhook URL were in the metadata and copied to the deposit wallet.
UPDATE "orders" o SET
  "source" = CASE WHEN s.id IS NULL THEN 'unsigned_link' ELSE 'signed_link' END,
  "store_id" = s.id::text,
  "payee_address" = coalesce(o.metadata->>'storePaymentAddress', o.metadata->>'externalPaymentAddress', w.store_payment_address),
  "webhook_url" = coalesce(w.webhook_url, o.metadata->>'webhookUrl')
FROM "orders" x
LEFT JOIN "payment_wallets" w ON w.order_id = x.id
LEFT JOIN "stores" s ON (x.metadata->>'signed')::boolean IS TRUE AND s.id::text = x.metadata->>'linkStoreId'
WHERE o.id = x.id AND (x.store_id = 'universal' OR (x.metadata->>'isUniversal')::boolean IS TRUE OR w.is_universal);
--> statement-breakpoint
-- Orders of a checkout session: the session names its order (and the order its session).
UPDATE "orders" o SET "source" = 'checkout_session'
WHERE o.source = 'storefront' AND (o.metadata ? 'checkoutSessionId'
  OR EXISTS (SELECT 1 FROM "checkout_sessions" c WHERE c.order_id = o.id));
--> statement-breakpoint
UPDATE "orders" SET "metadata" = "metadata" - ARRAY['isUniversal', 'signed', 'linkStoreId', 'webhookUrl', 'storePaymentAddress', 'externalPaymentAddress']
WHERE "metadata" ?| ARRAY['isUniversal', 'signed', 'linkStoreId', 'webhookUrl', 'storePaymentAddress', 'externalPaymentAddress'];
--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "store_id" SET DATA TYPE uuid USING "store_id"::uuid;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_source_check" CHECK ("source" in ('storefront', 'checkout_session', 'signed_link', 'unsigned_link'));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_source_store_check" CHECK (("orders"."store_id" is null) = ("orders"."source" = 'unsigned_link') and ("orders"."payee_address" is null) = ("orders"."source" in ('storefront', 'checkout_session')));
--> statement-breakpoint
ALTER TABLE "payment_wallets" DROP COLUMN "is_universal";
--> statement-breakpoint
ALTER TABLE "payment_wallets" DROP COLUMN "webhook_url";
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
  (o.store_id IS NULL) AS is_universal,
  o.source AS order_source,
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
LEFT JOIN public.stores s ON s.id = o.store_id
CROSS JOIN LATERAL (
  SELECT sum(p.value) AS received
  FROM analytics.indexed_transfers() p
  WHERE p."to" = t."to"
    AND (p.block_number < t.block_number OR (p.block_number = t.block_number AND p.log_index <= t.log_index))
) c;
--> statement-breakpoint
COMMENT ON VIEW analytics.payments IS 'One row per USDC transfer that reached an order''s deposit address. classification: late (mined after the payment window closed), under (the order had received less than expected after it), exact (it completed the expected amount exactly), over (the order had received more than expected after it). order_source: storefront, checkout_session, signed_link or unsigned_link. store_id and store_name are null for an unsigned link''s order (is_universal), which pays no store of ours.';
--> statement-breakpoint
CREATE VIEW analytics.settlements AS
SELECT
  f.wallet_id,
  w.order_id,
  s.id AS store_id,
  s.name AS store_name,
  (o.store_id IS NULL) AS is_universal,
  o.source AS order_source,
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
LEFT JOIN public.stores s ON s.id = o.store_id
LEFT JOIN LATERAL (
  SELECT min(to_timestamp(x.block_timestamp::double precision)) AS mined_at
  FROM analytics.indexed_transfers() x
  WHERE x.tx_hash = lower(f.tx_hash) AND x."to" = lower(f.to_address) AND x.value = f.value
) m ON true
WHERE f.leg <> 'gas';
--> statement-breakpoint
COMMENT ON VIEW analytics.settlements IS 'One row per USDC leg the worker sends from a deposit address: leg merchant (the merchant''s 98%), fee (the platform''s 2%) or refund. submitted_at: when the worker planned and signed it; mined_at: the block time of its indexed transfer (null until indexed); confirmed_at: when the worker saw it at the confirmation depth. gas_cost_eth: gas used times its price (plus the L1 fee on Base).';
--> statement-breakpoint
CREATE VIEW analytics.merchant_refunds AS
SELECT
  r.id AS refund_id,
  r.order_id,
  s.id AS store_id,
  s.name AS store_name,
  o.source AS order_source,
  w.external_order_id,
  r.reason,
  lower(w.store_payment_address) AS from_address,
  lower(r.to_address) AS to_address,
  (r.amount / 1000000)::numeric(38, 6) AS amount_usdc,
  r.amount AS amount_base_units,
  lower(r.tx_hash) AS tx_hash,
  r.block_number,
  m.mined_at,
  r.completed_at
FROM public.refunds r
JOIN public.orders o ON o.id = r.order_id
JOIN public.payment_wallets w ON w.order_id = r.order_id
LEFT JOIN public.stores s ON s.id = o.store_id
LEFT JOIN LATERAL (
  SELECT min(to_timestamp(x.block_timestamp::double precision)) AS mined_at
  FROM analytics.indexed_transfers() x
  WHERE x.tx_hash = lower(r.tx_hash) AND x."to" = lower(r.to_address) AND x.value = r.amount
) m ON true
WHERE r.source = 'merchant' AND r.status = 'refunded' AND r.tx_hash IS NOT NULL;
--> statement-breakpoint
COMMENT ON VIEW analytics.merchant_refunds IS 'One row per refund the merchant sent from the payout wallet (money already forwarded) and the worker matched to its transfer: from the payout address to the address the payer confirmed. mined_at: the block time of its indexed transfer.';
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
COMMENT ON VIEW analytics.daily_volume IS 'Per UTC day and store (unsigned links'' orders: one row with store_id null and is_universal): payments received that day, the orders they paid, their distinct payers and gross; merchant_net, fees and refunds: forwarding legs mined that day; median_settlement_seconds: median time from a payment''s block to the first merchant leg of its order mined after it.';
--> statement-breakpoint
GRANT SELECT ON ALL TABLES IN SCHEMA analytics TO storefront_analyst, storefront_api;
