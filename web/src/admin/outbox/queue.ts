// Putting a merchant's edit on the device: the draft (what the merchant now sees) and the outbox
// entry (what to send, with its Idempotency-Key and the version it was made on), in one
// transaction so neither exists without the other.
import { db } from '../../db/db.ts';
import { newIdempotencyKey } from '../../lib/api.ts';
import type { EntityRequest } from '../api.ts';
import type { DraftRow, EntityKind, OutboxRow } from '../types.ts';

/** Prefix of ids given to stores and products created on this device, until their create syncs. */
export const LOCAL_ID_PREFIX = 'local-';

/** True for an id that exists only on this device. */
export function isLocalId(id: string | undefined): boolean {
  return id?.startsWith(LOCAL_ID_PREFIX) ?? false;
}

/** The draft and outbox key of an entity. */
export function entityKeyOf(kind: EntityKind, id: string): string {
  return `${kind}:${id}`;
}

/** One edit of the merchant. */
export interface Mutation {
  userId: string;
  kind: EntityKind;
  op: 'create' | 'update';
  /** The entity edited (updates only). */
  entityId?: string;
  /** The product's store (products only). */
  storeId?: string;
  /** Create: the whole validated body; update: only the changed fields. */
  changes: Record<string, unknown>;
  /** The server version the edit was made on (updates of synced entities). */
  baseUpdatedAt?: string;
  /** The record as displayed when the edit was made, to build the draft from. */
  current?: Record<string, unknown>;
}

/** Saves the draft and queues the mutation; answers the queued entry. */
export function enqueue(mutation: Mutation): Promise<OutboxRow> {
  return db.transaction('rw', db.outbox, db.drafts, async () => {
    const entityId =
      mutation.op === 'create'
        ? `${LOCAL_ID_PREFIX}${crypto.randomUUID()}`
        : (mutation.entityId ?? '');
    if (!entityId) throw new Error('An update needs the id of what it changes');
    const entityKey = entityKeyOf(mutation.kind, entityId);
    const draft = await db.drafts.get(entityKey);
    // Note: an edit of a version that has not synced yet is based on the previous entry's result.
    const basedOnLocal = (await db.outbox.where('entityKey').equals(entityKey).count()) > 0;
    const entry: OutboxRow = {
      userId: mutation.userId,
      kind: mutation.kind,
      op: mutation.op,
      entityId,
      entityKey,
      body: mutation.changes,
      idempotencyKey: newIdempotencyKey(),
      status: 'pending',
      attempts: 0,
      createdAt: Date.now(),
      ...(mutation.storeId ? { storeId: mutation.storeId } : {}),
      ...(basedOnLocal
        ? { basedOnLocal: true }
        : mutation.baseUpdatedAt
          ? { baseUpdatedAt: mutation.baseUpdatedAt }
          : {}),
    };
    entry.seq = await db.outbox.add(entry);
    const next: DraftRow = {
      key: entityKey,
      kind: mutation.kind,
      id: entityId,
      userId: mutation.userId,
      data: {
        ...(draft?.data ?? mutation.current ?? {}),
        ...mutation.changes,
        id: entityId,
        ...(mutation.storeId ? { storeId: mutation.storeId } : {}),
      },
      createdLocally: mutation.op === 'create' || (draft?.createdLocally ?? false),
      savedAt: Date.now(),
      ...(mutation.storeId ? { storeId: mutation.storeId } : {}),
    };
    await db.drafts.put(next);
    return entry;
  });
}

/** The HTTP request an outbox entry stands for. */
export function requestOf(entry: OutboxRow): EntityRequest {
  const collection = entry.kind === 'store' ? '/api/stores' : '/api/products';
  if (entry.op === 'create') {
    const body = entry.kind === 'product' ? { ...entry.body, storeId: entry.storeId } : entry.body;
    return { method: 'POST', url: collection, body };
  }
  const body =
    entry.baseUpdatedAt === undefined
      ? entry.body
      : { ...entry.body, updatedAt: entry.baseUpdatedAt };
  return { method: 'PUT', url: `${collection}/${encodeURIComponent(entry.entityId)}`, body };
}

/** Removes an entity's unsent entries and draft (and, for a store never synced, its products'). */
export function discardEntity(userId: string, entityKey: string): Promise<void> {
  return db.transaction('rw', db.outbox, db.drafts, async () => {
    await db.outbox.where('entityKey').equals(entityKey).delete();
    await db.drafts.delete(entityKey);
    const [kind, id] = entityKey.split(/:(.*)/s);
    if (kind === 'store' && isLocalId(id)) {
      // Note: products added to a store that will never exist cannot be sent either.
      await db.outbox.filter((row) => row.userId === userId && row.storeId === id).delete();
      await db.drafts
        .where('storeId')
        .equals(id ?? '')
        .delete();
    }
  });
}
