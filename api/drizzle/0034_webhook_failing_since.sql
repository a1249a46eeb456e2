-- A webhook URL is paused once it has failed without a break for a configured time (days by
-- default), not after a count of failures: failing_since is the first failure of the run.
ALTER TABLE "webhook_endpoints" ADD COLUMN "failing_since" timestamp with time zone;--> statement-breakpoint
-- URLs failing now: their run is counted from their last recorded failure (the earliest known).
UPDATE "webhook_endpoints" SET "failing_since" = "updated_at" WHERE "consecutive_failures" > 0;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_url_due_idx" ON "webhook_deliveries" USING btree ("url","next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';
