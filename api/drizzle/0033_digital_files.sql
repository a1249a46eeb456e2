ALTER TABLE "products" DROP CONSTRAINT "products_digital_kind_check";--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_upstream_url_check";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "file_key" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "file_name" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "file_type" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "file_bytes" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "max_price_usdc" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_file_check" CHECK (("products"."digital_kind" is not distinct from 'file') = ("products"."file_key" is not null and "products"."file_name" is not null and "products"."file_type" is not null and "products"."file_bytes" is not null));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_max_price_check" CHECK ("products"."max_price_usdc" is null or "products"."price_usdc" <= "products"."max_price_usdc");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_digital_kind_check" CHECK ("products"."digital_kind" is null or "products"."digital_kind" in ('api', 'file'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_upstream_url_check" CHECK (("products"."digital_kind" is not distinct from 'api') = ("products"."upstream_url" is not null));