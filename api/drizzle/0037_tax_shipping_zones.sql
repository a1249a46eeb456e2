-- Tax and shipping by country. A store's existing flat tax rate (tax_rate_bps) and shipping
-- methods (shipping_options) stay where they are and become its "Rest of world" zone: every
-- country no zone lists. A store starts with no zones, so each one prices every order exactly as
-- before; the prices keep the tax added, as before.
ALTER TABLE "stores" ADD COLUMN "shipping_zones" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "prices_include_tax" boolean DEFAULT false NOT NULL;
