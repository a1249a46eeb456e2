-- Whether an order reads as forwarded is derived from the wallet, its forwarding legs and its
-- deposit refunds (api/src/payments/forwarded.ts): the stored copy and its index go.
DROP INDEX "payment_wallets_forwarding_idx";--> statement-breakpoint
ALTER TABLE "payment_wallets" DROP COLUMN "forwarding_completed";