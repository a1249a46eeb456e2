-- Legs of a payment that a reorg took away: a leg whose transaction was mined and failed is
-- 'reverted' (its hash and gas kept), one whose EIP-3009 authorization is being cancelled on chain
-- is 'canceling', and one that can never pay is 'canceled'; a wallet whose legs were all cancelled
-- reads forwarding 'canceled'. A canceled leg is closed, as a confirmed one: the open-legs index
-- leaves both out. Note: the checks are added NOT VALID and validated only when every row holds a
-- known value, as in 0006_state_checks.
ALTER TABLE "forwarding_transfers" DROP CONSTRAINT "forwarding_transfers_status_check";--> statement-breakpoint
ALTER TABLE "payment_wallets" DROP CONSTRAINT "payment_wallets_forwarding_status_check";--> statement-breakpoint
DROP INDEX "forwarding_transfers_open_idx";--> statement-breakpoint
CREATE INDEX "forwarding_transfers_open_idx" ON "forwarding_transfers" USING btree ("wallet_id") WHERE "forwarding_transfers"."status" not in ('confirmed', 'canceled');--> statement-breakpoint
ALTER TABLE "forwarding_transfers" ADD CONSTRAINT "forwarding_transfers_status_check" CHECK ("status" in ('planned', 'signed', 'sent', 'mined', 'confirmed', 'reverted', 'canceling', 'canceled')) NOT VALID;--> statement-breakpoint
DO $$
DECLARE unknown bigint;
BEGIN
  SELECT count(*) INTO unknown FROM "forwarding_transfers" WHERE NOT ("status" in ('planned', 'signed', 'sent', 'mined', 'confirmed', 'reverted', 'canceling', 'canceled'));
  IF unknown = 0 THEN
    ALTER TABLE "forwarding_transfers" VALIDATE CONSTRAINT "forwarding_transfers_status_check";
  ELSE
    RAISE WARNING 'forwarding_transfers_status_check: % row(s) of forwarding_transfers hold an unknown value; the constraint stays NOT VALID', unknown;
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD CONSTRAINT "payment_wallets_forwarding_status_check" CHECK ("forwarding_status" in ('none', 'forwarding', 'completed', 'retrying', 'waiting_relayer', 'failed', 'canceled')) NOT VALID;--> statement-breakpoint
DO $$
DECLARE unknown bigint;
BEGIN
  SELECT count(*) INTO unknown FROM "payment_wallets" WHERE NOT ("forwarding_status" in ('none', 'forwarding', 'completed', 'retrying', 'waiting_relayer', 'failed', 'canceled'));
  IF unknown = 0 THEN
    ALTER TABLE "payment_wallets" VALIDATE CONSTRAINT "payment_wallets_forwarding_status_check";
  ELSE
    RAISE WARNING 'payment_wallets_forwarding_status_check: % row(s) of payment_wallets hold an unknown value; the constraint stays NOT VALID', unknown;
  END IF;
END $$;
