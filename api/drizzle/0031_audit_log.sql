CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"store_id" uuid,
	"account_id" uuid NOT NULL,
	"actor_user_id" uuid,
	"actor_username" text,
	"actor_api_key_id" uuid,
	"actor_api_key_prefix" text,
	"ip" text,
	"user_agent" text,
	"subject_id" text,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "known_devices" (
	"user_id" uuid NOT NULL,
	"device_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "known_devices_user_id_device_hash_pk" PRIMARY KEY("user_id","device_hash")
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_store_idx" ON "audit_log" USING btree ("store_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_log_account_idx" ON "audit_log" USING btree ("account_id","at","id");--> statement-breakpoint
-- The audit log is append-only: the API inserts and reads it, and may never change or remove an
-- entry (the default privileges of 0004 gave every right); the worker has no right on it.
REVOKE ALL ON "audit_log" FROM storefront_api, storefront_worker;--> statement-breakpoint
GRANT SELECT, INSERT ON "audit_log" TO storefront_api;--> statement-breakpoint
REVOKE ALL ON "known_devices" FROM storefront_worker;--> statement-breakpoint
GRANT SELECT, INSERT ON "known_devices" TO storefront_api;
