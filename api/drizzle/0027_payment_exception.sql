-- A payment's exception, apart from its state: what went wrong (underpaid, overpaid, paid late,
-- accepted underpaid), stored once and written with the state by the settlement's record step;
-- and the amount a merchant accepted as the whole payment of an underpaid order.
ALTER TABLE "payment_wallets" ADD COLUMN "exception" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD COLUMN "accepted_amount_usdc" numeric(20, 6);--> statement-breakpoint
-- Backfill by the rules of paymentExceptionOf. An underpaid payment whose order is paid was
-- accepted by its merchant: it is received, held to what had arrived, and so agrees with its order.
UPDATE "payment_wallets" w SET "exception" = 'accepted_underpaid', "status" = 'received',
    "accepted_amount_usdc" = w."received_amount_usdc", "payment_received" = true
  WHERE w."status" = 'underpaid' AND EXISTS (SELECT 1 FROM "orders" o WHERE o."id" = w."order_id"
    AND o."status" IN ('paid', 'processing', 'shipped', 'completed'));--> statement-breakpoint
UPDATE "payment_wallets" w SET "exception" = CASE
    WHEN w."status" = 'underpaid' THEN 'underpaid'
    WHEN w."status" = 'expired' AND w."detected_amount_usdc" > 0 THEN 'underpaid'
    WHEN w."status" IN ('overpaid', 'paid_late') THEN w."status"
    ELSE 'none'
  END
  WHERE w."exception" = 'none';--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD CONSTRAINT "payment_wallets_exception_check" CHECK ("exception" in ('none', 'underpaid', 'overpaid', 'paid_late', 'accepted_underpaid'));
