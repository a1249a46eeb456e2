CREATE SEQUENCE "public"."payment_derivation_index_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 2147483647 START WITH 0 CACHE 1;--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD COLUMN "detected_amount_usdc" numeric(20, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD COLUMN "deposit_tx_hash" text;--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD COLUMN "detected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD COLUMN "awaiting_depth" boolean GENERATED ALWAYS AS (detected_amount_usdc <> received_amount_usdc) STORED NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_wallets_wallet_address_lower_idx" ON "payment_wallets" USING btree (lower("wallet_address"));--> statement-breakpoint
CREATE INDEX "payment_wallets_status_expired_at_idx" ON "payment_wallets" USING btree ("status","expired_at");--> statement-breakpoint
CREATE INDEX "payment_wallets_awaiting_depth_idx" ON "payment_wallets" USING btree ("id") WHERE "payment_wallets"."awaiting_depth";