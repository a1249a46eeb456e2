// The merchant's answers to a stopped outbox entry: keep their edit (re-sent on the server's
// current version), take the server's version, or drop an edit the server refused.
import * as v from 'valibot';
import { db } from '../../db/db.ts';
import { newIdempotencyKey } from '../../lib/api.ts';
import { MerchantProductSchema, MerchantStoreSchema, type OutboxRow } from '../types.ts';
import { discardEntity } from './queue.ts';

/** Re-queues a conflicting edit on the server's current version; the caller then syncs. */
export async function keepMine(entry: OutboxRow): Promise<void> {
  const serverVersion = entry.server?.updatedAt;
  if (entry.seq === undefined || typeof serverVersion !== 'string') return;
  // Note: a new key, since the body changes (the old key already answered 409).
  await db.outbox.update(entry.seq, {
    status: 'pending',
    baseUpdatedAt: serverVersion,
    basedOnLocal: false,
    idempotencyKey: newIdempotencyKey(),
    server: undefined,
    error: undefined,
  });
}

/** Drops the merchant's unsynced edits of the entity and shows the server's version. */
export async function takeServer(entry: OutboxRow): Promise<void> {
  await discardEntity(entry.userId, entry.entityKey);
  const schema = entry.kind === 'store' ? MerchantStoreSchema : MerchantProductSchema;
  const parsed = v.safeParse(schema, entry.server);
  if (!parsed.success) return;
  if (entry.kind === 'store')
    await db.adminStores.put({
      ...(parsed.output as v.InferOutput<typeof MerchantStoreSchema>),
      userId: entry.userId,
    });
  else
    await db.adminProducts.put({
      ...(parsed.output as v.InferOutput<typeof MerchantProductSchema>),
      userId: entry.userId,
    });
}

/** Drops an edit the server refused (and anything that depended on it). */
export async function discardFailed(entry: OutboxRow): Promise<void> {
  await discardEntity(entry.userId, entry.entityKey);
}

/** The fields of a conflicting edit with the merchant's value and the server's, for display. */
export function conflictFields(
  entry: OutboxRow,
): { field: string; mine: unknown; server: unknown }[] {
  return Object.entries(entry.body).map(([field, mine]) => ({
    field,
    mine,
    server: entry.server?.[field],
  }));
}
