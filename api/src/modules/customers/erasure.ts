// The merchant's erasure of one customer (POST /api/stores/{id}/customers/erase): the store's
// orders of that email lose the person (retention/customer-data.ts does it).
import type { Database } from '../../db/client.ts';
import { eraseCustomerData } from '../../retention/customer-data.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import type { Caller } from '../team/access.ts';

/** The merchant erases one customer (by email, any case) from their store's orders. */
export async function eraseStoreCustomer(
  db: Database,
  caller: Caller,
  storeId: string,
  email: string,
): Promise<{ erasedOrders: number; erasedAt: string }> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'manage');
  const now = new Date();
  const erasedOrders = await db.transaction((tx) =>
    eraseCustomerData(tx, store.id, { reason: 'request', email }, now),
  );
  return { erasedOrders, erasedAt: now.toISOString() };
}
