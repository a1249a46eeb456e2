-- A payment's state says only where it is (waiting, detected, received, expired, reversed); its
-- exception alone says what went wrong. The three states that mixed the two become the state they
-- are at, with the exception they named: underpaid is waiting (a top-up still completes it),
-- overpaid and paid_late are received. A payment accepted short keeps accepted_underpaid.
ALTER TABLE "payment_wallets" DROP CONSTRAINT "payment_wallets_status_check";--> statement-breakpoint
UPDATE "payment_wallets" SET
    "exception" = CASE WHEN "exception" = 'accepted_underpaid' THEN "exception" ELSE "status" END,
    "status" = CASE WHEN "status" = 'underpaid' THEN 'waiting' ELSE 'received' END
  WHERE "status" IN ('underpaid', 'overpaid', 'paid_late');--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD CONSTRAINT "payment_wallets_status_check" CHECK ("status" in ('waiting', 'detected', 'received', 'expired', 'reversed'));--> statement-breakpoint
-- The payment's history records the exception beside each state it reached, from the state it
-- named (and the merchant's acceptance of a short payment).
ALTER TABLE "payment_events" ADD COLUMN "exception" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
UPDATE "payment_events" SET "exception" = CASE
    WHEN "to_status" IN ('underpaid', 'overpaid', 'paid_late') THEN "to_status"
    WHEN "details" ->> 'acceptedUnderpaid' = 'true' THEN 'accepted_underpaid'
    ELSE 'none'
  END;--> statement-breakpoint
UPDATE "payment_events" SET
    "to_status" = CASE "to_status" WHEN 'underpaid' THEN 'waiting' WHEN 'overpaid' THEN 'received'
      WHEN 'paid_late' THEN 'received' ELSE "to_status" END,
    "from_status" = CASE "from_status" WHEN 'underpaid' THEN 'waiting' WHEN 'overpaid' THEN 'received'
      WHEN 'paid_late' THEN 'received' ELSE "from_status" END
  WHERE "to_status" IN ('underpaid', 'overpaid', 'paid_late')
    OR "from_status" IN ('underpaid', 'overpaid', 'paid_late');--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_exception_check" CHECK ("exception" in ('none', 'underpaid', 'overpaid', 'paid_late', 'accepted_underpaid'));
