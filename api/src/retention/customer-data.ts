// Erasing a customer's personal data from a store's orders (docs/rules.md#customer-data): on the
// merchant's request (every order of one email address) or by the store's retention (orders placed
// longer ago than its months). The orders keep their lines, amounts, payment and invoice number;
// they lose the person: the email (''), the shipping address (name, phone, street …: null), the
// customer part of their stored webhook payloads, the reviewer's name, and every mail not yet sent
// to them. The customers list reads orders with an email only, so the person leaves it too. Each
// erasure is recorded (when, why, how many orders) without a trace of the person.
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { ERASED_MAIL_ERROR } from '../mail/outbox.ts';

/** The author name an erased customer's reviews show. */
export const ERASED_REVIEWER = 'A verified buyer';

/** Which of a store's orders lose their person. */
export type ErasureScope =
  | { reason: 'request'; email: string }
  | { reason: 'retention'; placedBefore: Date };

/**
 * Erases the person from the store's orders of `scope` in one transaction; the number of orders
 * that had one (0: none, and nothing is recorded).
 */
export async function eraseCustomerData(
  tx: Executor,
  storeId: string,
  scope: ErasureScope,
  now: Date,
): Promise<number> {
  const which =
    scope.reason === 'request'
      ? sql`lower(o.customer_email) = lower(${scope.email}::text)`
      : sql`o.created_at < ${scope.placedBefore.toISOString()}::timestamptz`;
  // Note: the rows are locked first, so a payment recording a receipt meanwhile waits, and its
  // mail is then found below.
  const rows = await tx.execute<{ id: string; email: string }>(sql`
    select o.id, o.customer_email as email from orders o
    where o.store_id = ${storeId}::uuid and o.customer_erased_at is null
      and (o.customer_email <> '' or o.shipping_address is not null) and ${which}
    for update`);
  const targets = [...rows];
  if (targets.length === 0) return 0;
  const ids = targets.map((r) => r.id);
  const emails = [...new Set(targets.map((r) => r.email.toLowerCase()).filter((e) => e))];
  // Note: lists travel as one JSON parameter (this pool's parameters are text).
  const idList = sql`array(select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`;
  const emailList = sql`array(select jsonb_array_elements_text(${JSON.stringify(emails)}::jsonb))`;
  await tx.execute(sql`
    update orders set customer_email = '', shipping_address = null,
      customer_erased_at = ${now.toISOString()}::timestamptz
    where id = any(${idList})`);
  // Mails: none still waiting is sent; the address goes from those sent too.
  await tx.execute(sql`
    update email_outbox set
      status = case when status = 'pending' then 'failed' else status end,
      last_error = case when status = 'pending' then ${ERASED_MAIL_ERROR} else last_error end,
      to_address = '', payload = null
    where order_id = any(${idList}) and user_id is null
      and lower(to_address) = any(${emailList})`);
  // Webhook payloads keep everything but the customer.
  await tx.execute(sql`
    update webhook_deliveries set payload = jsonb_set(payload::jsonb, '{customer}',
      '{"email": "", "shippingAddress": null}'::jsonb)::text
    where order_id = any(${idList}) and payload::jsonb ? 'customer'`);
  // Note: on request only: the worker's role (retention) never reads reviews; a review is text
  // its buyer chose to publish, and the request is the buyer asking to be forgotten.
  if (scope.reason === 'request')
    await tx.execute(sql`
      update reviews set author_name = ${ERASED_REVIEWER} where order_id = any(${idList})`);
  await tx.execute(sql`
    insert into customer_erasures (store_id, reason, orders, created_at)
    values (${storeId}::uuid, ${scope.reason}, ${ids.length}, ${now.toISOString()}::timestamptz)`);
  return ids.length;
}

/**
 * The retention pass: every store with a retention erases the person from its orders placed more
 * than its months ago. The number of orders erased.
 */
export async function runCustomerRetention(db: Database, now: Date = new Date()): Promise<number> {
  const due = await db.execute<{ id: string; months: number }>(sql`
    select s.id, s.customer_retention_months as months from stores s
    where s.customer_retention_months is not null and exists (
      select from orders o where o.store_id = s.id and o.customer_erased_at is null
        and (o.customer_email <> '' or o.shipping_address is not null)
        and o.created_at < now() - make_interval(months => s.customer_retention_months))`);
  let erased = 0;
  for (const store of due) {
    const placedBefore = new Date(now);
    placedBefore.setUTCMonth(placedBefore.getUTCMonth() - store.months);
    erased += await db.transaction((tx) =>
      eraseCustomerData(tx, store.id, { reason: 'retention', placedBefore }, now),
    );
  }
  return erased;
}
