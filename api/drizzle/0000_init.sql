CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" text NOT NULL,
	"customer_email" text NOT NULL,
	"shipping_address" jsonb,
	"items" jsonb NOT NULL,
	"subtotal_usdc" numeric(10, 2) DEFAULT '0.00' NOT NULL,
	"shipping_usdc" numeric(10, 2) DEFAULT '0.00' NOT NULL,
	"total_usdc" numeric(10, 2) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"payment_chain" text,
	"payment_tx_hash" text,
	"payment_address" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"wallet_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"received_amount_usdc" numeric(20, 6) NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_wallets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"wallet_address" text NOT NULL,
	"derivation_path" text NOT NULL,
	"derivation_index" integer NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"expected_amount_usdc" numeric(10, 2) NOT NULL,
	"received_amount_usdc" numeric(20, 6) DEFAULT '0' NOT NULL,
	"store_payment_address" text NOT NULL,
	"payment_received" boolean DEFAULT false NOT NULL,
	"expired_at" timestamp with time zone,
	"gas_funded" boolean DEFAULT false NOT NULL,
	"gas_amount_sent" numeric(30, 18) DEFAULT '0' NOT NULL,
	"forwarding_completed" boolean DEFAULT false NOT NULL,
	"forwarding_retry_count" integer DEFAULT 0 NOT NULL,
	"actual_gas_used" numeric(30, 18) DEFAULT '0' NOT NULL,
	"payment_chain" text NOT NULL,
	"is_universal" boolean DEFAULT false NOT NULL,
	"external_order_id" text,
	"webhook_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"payment_received_at" timestamp with time zone,
	"forwarded_at" timestamp with time zone,
	CONSTRAINT "payment_wallets_walletAddress_unique" UNIQUE("wallet_address"),
	CONSTRAINT "payment_wallets_derivationIndex_unique" UNIQUE("derivation_index")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"image_url" text,
	"price_usdc" numeric(10, 2) NOT NULL,
	"is_published" boolean DEFAULT true NOT NULL,
	"inventory" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stores" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"logo_url" text,
	"description" text,
	"domain" text,
	"owner_id" text NOT NULL,
	"payment_address" text,
	"theme" text DEFAULT 'dark' NOT NULL,
	"primary_color" text DEFAULT '#6366f1' NOT NULL,
	"secondary_color" text DEFAULT '#8b5cf6' NOT NULL,
	"accent_color" text DEFAULT '#06b6d4' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"webhook_url" text,
	"webhook_secret" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stores_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"password" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_username_unique" UNIQUE("username")
);
--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_wallet_id_payment_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."payment_wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_wallets" ADD CONSTRAINT "payment_wallets_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "orders_store_id_idx" ON "orders" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status");--> statement-breakpoint
CREATE INDEX "orders_created_at_idx" ON "orders" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "payment_events_wallet_id_idx" ON "payment_events" USING btree ("wallet_id");--> statement-breakpoint
CREATE INDEX "payment_events_order_id_idx" ON "payment_events" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payment_wallets_wallet_address_idx" ON "payment_wallets" USING btree ("wallet_address");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_wallets_order_id_idx" ON "payment_wallets" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payment_wallets_external_order_id_idx" ON "payment_wallets" USING btree ("external_order_id");--> statement-breakpoint
CREATE INDEX "payment_wallets_forwarding_idx" ON "payment_wallets" USING btree ("forwarding_completed","expired_at");--> statement-breakpoint
CREATE INDEX "payment_wallets_created_at_idx" ON "payment_wallets" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "payment_wallets_status_idx" ON "payment_wallets" USING btree ("status");--> statement-breakpoint
CREATE INDEX "products_store_id_idx" ON "products" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "stores_slug_idx" ON "stores" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "stores_owner_id_idx" ON "stores" USING btree ("owner_id");