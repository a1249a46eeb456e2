// A form's save: queue the edit (draft + outbox), replay at once, and tell the form how it went,
// so an online save behaves like a plain request and an offline one is kept for later.
import { db } from '../../db/db.ts';
import type { MerchantProduct, MerchantStore } from '../types.ts';
import { discardEntity, enqueue, type Mutation } from './queue.ts';
import { onReplay, syncNow } from './sync.ts';

/** How a save ended. */
export type SubmitOutcome =
  | { status: 'synced'; saved: MerchantStore | MerchantProduct }
  /** Kept on the device (offline, or waiting behind an unsynced edit); it syncs later. */
  | { status: 'queued' }
  /** The entity changed on the server meanwhile; the merchant chooses in the sync panel. */
  | { status: 'conflict' }
  /** The server refused it; `kept` when it stays in the sync panel instead of being undone. */
  | { status: 'failed'; message: string; kept: boolean };

// Entries saved by a form that reports its own outcome; background toasts skip them.
const liveEntries = new Set<number>();

/** True when a form is reporting this entry's outcome itself. */
export function isLiveEntry(seq: number | undefined): boolean {
  return seq !== undefined && liveEntries.has(seq);
}

/** Saves a mutation through the outbox and waits for one replay. */
export async function submitMutation(mutation: Mutation): Promise<SubmitOutcome> {
  const entry = await enqueue(mutation);
  const seq = entry.seq ?? -1;
  liveEntries.add(seq);
  let saved: MerchantStore | MerchantProduct | undefined;
  const stop = onReplay((report) => {
    saved = report.synced.find((done) => done.entry.seq === seq)?.saved ?? saved;
  });
  try {
    await syncNow(mutation.userId);
  } finally {
    stop();
    liveEntries.delete(seq);
  }
  if (saved) return { status: 'synced', saved };
  const after = await db.outbox.get(seq);
  if (!after) return { status: 'queued' };
  if (after.status === 'conflict') return { status: 'conflict' };
  if (after.status === 'failed') {
    const message = after.error ?? '';
    // Note: an edit that stood alone is undone, so the form can be fixed and sent again.
    if (entry.basedOnLocal) return { status: 'failed', message, kept: true };
    await discardEntity(mutation.userId, entry.entityKey);
    return { status: 'failed', message, kept: false };
  }
  return { status: 'queued' };
}
