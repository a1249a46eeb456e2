-- Digital products sold per request over HTTP 402 (x402): an API resource's upstream URL and its
-- secret header on the product, and one row per payment authorization (x402_payments) that the API
-- records and the worker's relayer settles.
CREATE TABLE "x402_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"wallet_id" uuid NOT NULL,
	"product_id" uuid,
	"payer" text NOT NULL,
	"pay_to" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"valid_after" numeric(78, 0) NOT NULL,
	"valid_before" numeric(78, 0) NOT NULL,
	"authorization_nonce" text NOT NULL,
	"signature" text NOT NULL,
	"status" text DEFAULT 'settling' NOT NULL,
	"raw_transaction" text,
	"tx_hash" text,
	"tx_nonce" integer,
	"block_number" numeric(78, 0),
	"error" text,
	"response_status" integer,
	"response_type" text,
	"response_body" text,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	"served_at" timestamp with time zone,
	CONSTRAINT "x402_payments_status_check" CHECK ("status" in ('settling', 'submitted', 'settled', 'failed', 'serving', 'served', 'undelivered'))
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "digital_kind" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "upstream_url" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "upstream_secret_header" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "upstream_secret_value" text;--> statement-breakpoint
ALTER TABLE "x402_payments" ADD CONSTRAINT "x402_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "x402_payments" ADD CONSTRAINT "x402_payments_wallet_id_payment_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."payment_wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "x402_payments_authorization_idx" ON "x402_payments" USING btree ("payer","authorization_nonce");--> statement-breakpoint
CREATE INDEX "x402_payments_order_id_idx" ON "x402_payments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "x402_payments_wallet_idx" ON "x402_payments" USING btree ("wallet_id") WHERE "x402_payments"."status" <> 'failed';--> statement-breakpoint
CREATE INDEX "x402_payments_due_idx" ON "x402_payments" USING btree ("created_at") WHERE "x402_payments"."status" in ('settling', 'submitted');--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_digital_kind_check" CHECK ("products"."digital_kind" is null or "products"."digital_kind" = 'api');--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_upstream_url_check" CHECK (("products"."digital_kind" is null) = ("products"."upstream_url" is null));--> statement-breakpoint
-- Granted by name, as in 0009 (0004's default privileges cover only tables its role created): the
-- API records the authorizations and serves; the worker settles them.
GRANT SELECT, INSERT, UPDATE ON "x402_payments" TO storefront_api;--> statement-breakpoint
GRANT SELECT, UPDATE ON "x402_payments" TO storefront_worker;
