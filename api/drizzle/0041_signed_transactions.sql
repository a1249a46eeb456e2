-- A signed transaction's bytes are kept once (a batch's were written on each of up to 64 legs it
-- carries); a leg keeps the hash.
CREATE TABLE "signed_transactions" (
	"hash" text PRIMARY KEY NOT NULL,
	"raw" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "signed_transactions" ("hash", "raw", "created_at")
SELECT DISTINCT ON ("tx_hash") "tx_hash", "raw_transaction", "created_at"
FROM "forwarding_transfers"
WHERE "tx_hash" IS NOT NULL AND "raw_transaction" IS NOT NULL
ORDER BY "tx_hash", "created_at";--> statement-breakpoint
ALTER TABLE "forwarding_transfers" DROP COLUMN "raw_transaction";
