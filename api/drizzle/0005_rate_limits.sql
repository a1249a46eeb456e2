-- Rate-limit counters shared by the API's replicas. Note: UNLOGGED (no WAL, so a hit costs
-- little): after a crash or a failover the counters start again from zero, which only lets one
-- window's worth of hits through early.
CREATE UNLOGGED TABLE "rate_limits" (
	"bucket" text NOT NULL,
	"key" text NOT NULL,
	"hits" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rate_limits_bucket_key_pk" PRIMARY KEY("bucket","key")
);
--> statement-breakpoint
-- Note: 0004's default privileges cover tables created by the role that ran it; granted here too
-- in case another owner migrates. The worker never limits requests: it gets nothing.
GRANT SELECT, INSERT, UPDATE, DELETE ON "rate_limits" TO storefront_api;
--> statement-breakpoint
REVOKE ALL ON "rate_limits" FROM storefront_worker;
--> statement-breakpoint
CREATE INDEX "payment_events_created_at_idx" ON "payment_events" USING btree ("created_at");
