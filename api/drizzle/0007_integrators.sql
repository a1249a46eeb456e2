CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"mode" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_keyHash_unique" UNIQUE("key_hash"),
	CONSTRAINT "api_keys_mode_check" CHECK ("mode" in ('test', 'live'))
);
--> statement-breakpoint
CREATE TABLE "checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"items" jsonb NOT NULL,
	"shipping_options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subtotal_usdc" numeric(10, 2) NOT NULL,
	"tax_usdc" numeric(10, 2) DEFAULT '0.00' NOT NULL,
	"currency" text DEFAULT 'USDC' NOT NULL,
	"external_order_id" text,
	"return_url" text,
	"cancel_url" text,
	"customer" jsonb,
	"theme" jsonb,
	"metadata" jsonb,
	"expires_at" timestamp with time zone NOT NULL,
	"order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "checkout_sessions_status_check" CHECK ("status" in ('open', 'completed', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "store_link_secrets" (
	"store_id" uuid PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rotated_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_link_secrets" ADD CONSTRAINT "store_link_secrets_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_user_id_idx" ON "api_keys" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "checkout_sessions_user_id_idx" ON "checkout_sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "checkout_sessions_store_id_idx" ON "checkout_sessions" USING btree ("store_id");--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_order_id_idx" ON "checkout_sessions" USING btree ("order_id");--> statement-breakpoint
-- Note: the worker role gets every new table by default privileges (0004); it needs none of these
-- (API keys authenticate HTTP requests, link secrets verify links, sessions become orders in the
-- API), so it is refused them and a leak of its login exposes no credential.
REVOKE ALL ON "api_keys", "checkout_sessions", "store_link_secrets" FROM storefront_worker;
