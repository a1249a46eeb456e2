CREATE TABLE "webhook_endpoints" (
	"url" text PRIMARY KEY NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"paused_at" timestamp with time zone,
	"paused_until" timestamp with time zone,
	"notified_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Granted by name, as in 0009 (0004's default privileges cover only tables its role created): the
-- worker records each URL's failures and pauses; the API only shows them to the owner.
GRANT SELECT, INSERT, UPDATE, DELETE ON "webhook_endpoints" TO storefront_worker;--> statement-breakpoint
GRANT SELECT ON "webhook_endpoints" TO storefront_api;--> statement-breakpoint
REVOKE INSERT, UPDATE, DELETE ON "webhook_endpoints" FROM storefront_api;
