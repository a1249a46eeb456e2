CREATE TABLE "store_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"refund_limit_usdc" numeric(10, 2),
	"token_hash" text NOT NULL,
	"invited_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_invitations_tokenHash_unique" UNIQUE("token_hash"),
	CONSTRAINT "store_invitations_role_check" CHECK ("store_invitations"."role" in ('admin', 'staff', 'viewer'))
);
--> statement-breakpoint
CREATE TABLE "store_members" (
	"store_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"refund_limit_usdc" numeric(10, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_members_store_id_user_id_pk" PRIMARY KEY("store_id","user_id"),
	CONSTRAINT "store_members_role_check" CHECK ("role" in ('owner', 'admin', 'staff', 'viewer')),
	CONSTRAINT "store_members_refund_limit_check" CHECK ("store_members"."refund_limit_usdc" is null or "store_members"."refund_limit_usdc" >= 0)
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "role" text DEFAULT 'owner' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "store_id" uuid;--> statement-breakpoint
ALTER TABLE "store_invitations" ADD CONSTRAINT "store_invitations_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_invitations" ADD CONSTRAINT "store_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_invitations" ADD CONSTRAINT "store_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_members" ADD CONSTRAINT "store_members_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_members" ADD CONSTRAINT "store_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "store_invitations_store_id_idx" ON "store_invitations" USING btree ("store_id","created_at");--> statement-breakpoint
CREATE INDEX "store_members_user_id_idx" ON "store_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "store_members_one_owner_idx" ON "store_members" USING btree ("store_id") WHERE "store_members"."role" = 'owner';--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_role_check" CHECK ("role" in ('owner', 'admin', 'staff', 'viewer'));--> statement-breakpoint
-- Every store's owner is its owner member: the stores there are now, and each new store (however
-- it is made) by the trigger below. The API's and the worker's roles get these tables like every
-- other (0004_roles' default privileges).
INSERT INTO "store_members" ("store_id", "user_id", "role")
SELECT s."id", u."id", 'owner' FROM "stores" s JOIN "users" u ON u."id"::text = s."owner_id"
ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE FUNCTION store_owner_member() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO store_members (store_id, user_id, role)
  SELECT NEW.id, u.id, 'owner' FROM users u WHERE u.id::text = NEW.owner_id
  ON CONFLICT DO NOTHING;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER stores_owner_member AFTER INSERT ON "stores"
FOR EACH ROW EXECUTE FUNCTION store_owner_member();
