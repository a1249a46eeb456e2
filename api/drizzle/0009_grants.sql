-- Rights on the tables of 0007 and 0008 granted by name. Note: 0004's default privileges cover
-- only tables created by the role that ran it; a database migrated by another owner would leave
-- the worker unable to queue a receipt, and that would roll back the recording of a payment.
GRANT SELECT, INSERT, UPDATE, DELETE ON "email_outbox" TO storefront_worker;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "api_keys", "checkout_sessions", "store_link_secrets" TO storefront_api;
