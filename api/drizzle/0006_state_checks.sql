-- Stored states become CHECK constraints built from the shared constants (api/src/db/schema.ts).
-- Note: each is added NOT VALID (new and updated rows are checked at once) and then validated
-- only if every existing row already holds a known value. A database with some other value
-- still migrates: that constraint stays NOT VALID, a warning names the rows' count, and
-- `ALTER TABLE ... VALIDATE CONSTRAINT ...` can be run once those rows are corrected.
ALTER TABLE "forwarding_transfers" ADD CONSTRAINT "forwarding_transfers_status_check" CHECK ("status" in ('planned', 'signed', 'sent', 'mined', 'confirmed')) NOT VALID;
--> statement-breakpoint
DO $$
DECLARE unknown bigint;
BEGIN
  SELECT count(*) INTO unknown FROM "forwarding_transfers" WHERE NOT ("status" in ('planned', 'signed', 'sent', 'mined', 'confirmed'));
  IF unknown = 0 THEN
    ALTER TABLE "forwarding_transfers" VALIDATE CONSTRAINT "forwarding_transfers_status_check";
  ELSE
    RAISE WARNING 'forwarding_transfers_status_check: % row(s) of forwarding_transfers hold an unknown value; the constraint stays NOT VALID', unknown;
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("status" in ('pending', 'paid', 'processing', 'shipped', 'completed', 'reversed')) NOT VALID;
--> statement-breakpoint
DO $$
DECLARE unknown bigint;
BEGIN
  SELECT count(*) INTO unknown FROM "orders" WHERE NOT ("status" in ('pending', 'paid', 'processing', 'shipped', 'completed', 'reversed'));
  IF unknown = 0 THEN
    ALTER TABLE "orders" VALIDATE CONSTRAINT "orders_status_check";
  ELSE
    RAISE WARNING 'orders_status_check: % row(s) of orders hold an unknown value; the constraint stays NOT VALID', unknown;
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD CONSTRAINT "payment_wallets_status_check" CHECK ("status" in ('waiting', 'detected', 'underpaid', 'received', 'overpaid', 'paid_late', 'expired', 'reversed')) NOT VALID;
--> statement-breakpoint
DO $$
DECLARE unknown bigint;
BEGIN
  SELECT count(*) INTO unknown FROM "payment_wallets" WHERE NOT ("status" in ('waiting', 'detected', 'underpaid', 'received', 'overpaid', 'paid_late', 'expired', 'reversed'));
  IF unknown = 0 THEN
    ALTER TABLE "payment_wallets" VALIDATE CONSTRAINT "payment_wallets_status_check";
  ELSE
    RAISE WARNING 'payment_wallets_status_check: % row(s) of payment_wallets hold an unknown value; the constraint stays NOT VALID', unknown;
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD CONSTRAINT "payment_wallets_forwarding_status_check" CHECK ("forwarding_status" in ('none', 'forwarding', 'completed', 'retrying', 'waiting_relayer', 'failed')) NOT VALID;
--> statement-breakpoint
DO $$
DECLARE unknown bigint;
BEGIN
  SELECT count(*) INTO unknown FROM "payment_wallets" WHERE NOT ("forwarding_status" in ('none', 'forwarding', 'completed', 'retrying', 'waiting_relayer', 'failed'));
  IF unknown = 0 THEN
    ALTER TABLE "payment_wallets" VALIDATE CONSTRAINT "payment_wallets_forwarding_status_check";
  ELSE
    RAISE WARNING 'payment_wallets_forwarding_status_check: % row(s) of payment_wallets hold an unknown value; the constraint stays NOT VALID', unknown;
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" in ('pending', 'delivered', 'failed')) NOT VALID;
--> statement-breakpoint
DO $$
DECLARE unknown bigint;
BEGIN
  SELECT count(*) INTO unknown FROM "webhook_deliveries" WHERE NOT ("status" in ('pending', 'delivered', 'failed'));
  IF unknown = 0 THEN
    ALTER TABLE "webhook_deliveries" VALIDATE CONSTRAINT "webhook_deliveries_status_check";
  ELSE
    RAISE WARNING 'webhook_deliveries_status_check: % row(s) of webhook_deliveries hold an unknown value; the constraint stays NOT VALID', unknown;
  END IF;
END $$;
