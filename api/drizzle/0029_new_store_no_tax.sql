-- A store created without a tax rate charges none until its merchant sets one (was SPEC's 8%).
-- Existing stores keep the rate they have.
ALTER TABLE "stores" ALTER COLUMN "tax_rate_bps" SET DEFAULT 0;
