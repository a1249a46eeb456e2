CREATE TABLE "forwarding_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"wallet_id" uuid NOT NULL,
	"round" integer NOT NULL,
	"leg" text NOT NULL,
	"mode" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"authorization_nonce" text,
	"valid_before" numeric(78, 0),
	"signature" text,
	"raw_transaction" text,
	"tx_hash" text,
	"tx_nonce" integer,
	"status" text DEFAULT 'planned' NOT NULL,
	"block_number" numeric(78, 0),
	"gas_cost_wei" numeric(78, 0),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "forwarding_transfers_authorizationNonce_unique" UNIQUE("authorization_nonce")
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"latency_ms" integer NOT NULL,
	"error" text,
	"response_body" text
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"store_id" text NOT NULL,
	"event_type" text NOT NULL,
	"url" text NOT NULL,
	"payload" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retry_until" timestamp with time zone NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD COLUMN "forwarded_amount_usdc" numeric(20, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD COLUMN "forwarding_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD COLUMN "forwarding_error" text;--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD COLUMN "forwarding_next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD COLUMN "forwarding_due" boolean GENERATED ALWAYS AS (received_amount_usdc > forwarded_amount_usdc) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "previous_webhook_secret" text;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "webhook_secret_rotated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "forwarding_transfers" ADD CONSTRAINT "forwarding_transfers_wallet_id_payment_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."payment_wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "forwarding_transfers_wallet_round_leg_idx" ON "forwarding_transfers" USING btree ("wallet_id","round","leg");--> statement-breakpoint
CREATE INDEX "forwarding_transfers_tx_hash_idx" ON "forwarding_transfers" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "forwarding_transfers_open_idx" ON "forwarding_transfers" USING btree ("wallet_id") WHERE "forwarding_transfers"."status" <> 'confirmed';--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_id_idx" ON "webhook_attempts" USING btree ("delivery_id","attempted_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_store_id_idx" ON "webhook_deliveries" USING btree ("store_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_order_id_idx" ON "webhook_deliveries" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payment_wallets_forwarding_due_idx" ON "payment_wallets" USING btree ("id") WHERE "payment_wallets"."forwarding_due";