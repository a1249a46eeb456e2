ALTER TABLE "orders" ADD COLUMN "stock_shortfall" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "status_before_reversal" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_before_reversal_check" CHECK ("orders"."status_before_reversal" is null or "status_before_reversal" in ('pending', 'paid', 'processing', 'shipped', 'completed', 'reversed'));--> statement-breakpoint
-- What an order's metadata JSON held about the money path becomes columns: the status a reversed
-- order had before its payment left the chain, and an oversold order's lines short of stock.
UPDATE "orders" SET
  "status_before_reversal" = "metadata"->>'reversedFrom',
  "stock_shortfall" = "metadata"->'stockShortfall',
  "metadata" = "metadata" - 'reversedFrom' - 'stockShortfall'
WHERE "metadata" ?| array['reversedFrom', 'stockShortfall'];
