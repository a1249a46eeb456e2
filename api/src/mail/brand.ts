// The store an order's mails are sent in (its name, colour and reply-to address), read once by
// every template that needs only that much (the refund claim and shipped mails).
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { type orders, stores } from '../db/schema.ts';
import { brandingStoreId } from './receipt.ts';

/** The branding store of `order` (brandingStoreId), or undefined for none. */
export async function mailBrandOf(db: Executor, order: typeof orders.$inferSelect) {
  const storeId = brandingStoreId(order);
  if (!storeId) return undefined;
  const [store] = await db
    .select({
      name: stores.name,
      primaryColor: stores.primaryColor,
      replyTo: stores.replyToEmail,
    })
    .from(stores)
    .where(eq(stores.id, storeId))
    .limit(1);
  return store;
}
