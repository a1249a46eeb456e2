ALTER TABLE "checkout_sessions" ADD COLUMN "discount_code" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "discount_usdc" numeric(10, 2) DEFAULT '0.00' NOT NULL;