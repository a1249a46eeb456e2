-- A checkout session stores what happened to it: 'submitted' (the shopper sent the form and its
-- order exists), not 'completed'; whether it is paid is its order's to say, and the API reports
-- awaiting_payment or completed from there.
ALTER TABLE "checkout_sessions" DROP CONSTRAINT "checkout_sessions_status_check";--> statement-breakpoint
UPDATE "checkout_sessions" SET "status" = 'submitted' WHERE "status" = 'completed';--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_status_check" CHECK ("status" in ('open', 'submitted', 'expired'));
