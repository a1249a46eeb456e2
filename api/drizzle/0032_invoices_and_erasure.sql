CREATE TABLE "customer_erasures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"orders" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_erasures_reason_check" CHECK ("customer_erasures"."reason" in ('request', 'retention'))
);
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"store_id" uuid PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"store_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "legal_name" text;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "legal_address" text;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "tax_id" text;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "attach_invoice_to_receipt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "customer_retention_months" integer;--> statement-breakpoint
ALTER TABLE "customer_erasures" ADD CONSTRAINT "customer_erasures_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_counters" ADD CONSTRAINT "invoice_counters_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_erasures_store_idx" ON "customer_erasures" USING btree ("store_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_store_number_idx" ON "invoices" USING btree ("store_id","number");--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_customer_retention_months_check" CHECK ("stores"."customer_retention_months" is null or "stores"."customer_retention_months" between 1 and 120);--> statement-breakpoint
-- The invoice of a store order is issued in the transaction that makes it paid (pending -> one of
-- the revenue statuses, whichever path does it), numbered from the store's counter: the counter's
-- row lock makes concurrent payments of one store take turns, and a payment that rolls back rolls
-- its number back, so each store's numbers run 1, 2, 3 … without gaps. Issued once: a later status
-- (processing, shipped, reversed …) keeps the number.
CREATE FUNCTION issue_invoice() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  next_number integer;
BEGIN
  IF NEW.store_id IS NULL OR NEW.status NOT IN ('paid', 'processing', 'shipped', 'completed') THEN
    RETURN NULL;
  END IF;
  IF EXISTS (SELECT 1 FROM invoices WHERE order_id = NEW.id) THEN
    RETURN NULL;
  END IF;
  INSERT INTO invoice_counters AS c (store_id, last_number) VALUES (NEW.store_id, 1)
  ON CONFLICT (store_id) DO UPDATE SET last_number = c.last_number + 1
  RETURNING c.last_number INTO next_number;
  INSERT INTO invoices (order_id, store_id, number, issued_at)
  VALUES (NEW.id, NEW.store_id, next_number, now());
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER orders_issue_invoice AFTER INSERT OR UPDATE OF status ON orders
FOR EACH ROW EXECUTE FUNCTION issue_invoice();
--> statement-breakpoint
-- Orders paid before invoices existed get theirs now, in the order they were placed.
INSERT INTO invoices (order_id, store_id, number, issued_at)
SELECT o.id, o.store_id,
  row_number() OVER (PARTITION BY o.store_id ORDER BY o.created_at, o.id)::integer,
  coalesce((SELECT max(w.payment_received_at) FROM payment_wallets w WHERE w.order_id = o.id), o.updated_at)
FROM orders o
WHERE o.store_id IS NOT NULL AND o.status IN ('paid', 'processing', 'shipped', 'completed');
--> statement-breakpoint
INSERT INTO invoice_counters (store_id, last_number)
SELECT store_id, max(number) FROM invoices GROUP BY store_id;
--> statement-breakpoint
-- Note: 0004's default privileges cover tables created by the role that ran it; granted by name.
GRANT SELECT, INSERT, UPDATE, DELETE ON "invoices", "invoice_counters" TO storefront_api, storefront_worker;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "customer_erasures" TO storefront_api, storefront_worker;
