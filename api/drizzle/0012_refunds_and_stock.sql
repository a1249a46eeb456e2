CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"wallet_id" uuid,
	"source" text NOT NULL,
	"reason" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'awaiting_address' NOT NULL,
	"suggested_address" text,
	"to_address" text,
	"claim_token_hash" text,
	"round" integer,
	"tx_hash" text,
	"block_number" numeric(78, 0),
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "refunds_claimTokenHash_unique" UNIQUE("claim_token_hash"),
	CONSTRAINT "refunds_status_check" CHECK ("status" in ('awaiting_address', 'ready', 'sending', 'refunded', 'canceled', 'failed')),
	CONSTRAINT "refunds_source_check" CHECK ("source" in ('deposit', 'merchant'))
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "track_inventory" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_wallet_id_payment_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."payment_wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_order_id_idx" ON "refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "refunds_wallet_id_idx" ON "refunds" USING btree ("wallet_id");--> statement-breakpoint
CREATE INDEX "refunds_due_idx" ON "refunds" USING btree ("created_at") WHERE "refunds"."status" in ('ready', 'sending');--> statement-breakpoint
-- Products that counted stock before this column (inventory above 0) keep counting it.
UPDATE "products" SET "track_inventory" = true WHERE "inventory" > 0;
--> statement-breakpoint
-- The API records refunds (claims, a merchant's refund); the worker sends those on deposit
-- addresses and records their outcome. Rights by name, as in 0009.
GRANT SELECT, INSERT, UPDATE, DELETE ON "refunds" TO storefront_api, storefront_worker;
