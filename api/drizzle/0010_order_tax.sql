-- The tax is stored on the order so its amounts add up everywhere; orders placed before it get
-- what their total holds beyond the subtotal and shipping (the store checkout's 8%, a session's tax).
ALTER TABLE "orders" ADD COLUMN "tax_usdc" numeric(10, 2) DEFAULT '0.00' NOT NULL;
--> statement-breakpoint
UPDATE "orders" SET "tax_usdc" = "total_usdc" - "subtotal_usdc" - "shipping_usdc";
