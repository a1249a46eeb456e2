CREATE TABLE "store_slugs" (
	"slug" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Every store's current slug belongs to its owner from now on (the slugs given up before are not
-- known: only the ones in use are reserved).
INSERT INTO "store_slugs" ("slug", "owner_id") SELECT "slug", "owner_id" FROM "stores" ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Granted by name, as in 0009 (0004's default privileges cover only tables its role created).
GRANT SELECT, INSERT, UPDATE, DELETE ON "store_slugs" TO storefront_api;
--> statement-breakpoint
-- The worker never needs which merchant owns which slug (0004's default privileges gave it all).
REVOKE ALL ON "store_slugs" FROM storefront_worker;
