// Replays the outbox in order: every entry with its own Idempotency-Key (the same on every try, so
// a request that reached the server before the network dropped is answered from the server's
// record instead of applied twice). Entries of one entity go one after the other; a 409 on a
// stale version stops that entity as a conflict the merchant resolves.
import { db } from '../../db/db.ts';
import { ApiError } from '../../lib/api.ts';
import { type EntityRequest, sendEntityRequest } from '../api.ts';
import type { ApiSchemas, MerchantProduct, MerchantStore, OutboxRow } from '../types.ts';
import { entityKeyOf, requestOf } from './queue.ts';

/** Sends one entity request; tests pass a fake. */
export type Sender = (
  kind: OutboxRow['kind'],
  request: EntityRequest,
  idempotencyKey: string,
) => Promise<MerchantStore | MerchantProduct>;

/** Why a replay stopped before the end of the outbox. */
export type StopReason = 'offline' | 'signed-out' | 'server-busy';

/** What one replay did. */
export interface ReplayReport {
  synced: { entry: OutboxRow; saved: MerchantStore | MerchantProduct }[];
  conflicts: OutboxRow[];
  failures: OutboxRow[];
  stopped?: StopReason;
}

type Outcome =
  | { kind: 'synced'; saved: MerchantStore | MerchantProduct }
  | { kind: 'conflict'; server: Record<string, unknown> }
  | { kind: 'failed'; message: string }
  | { kind: 'skip' }
  | { kind: 'stop'; reason: StopReason };

/** The API's error codes (the contract's). */
type ErrorCode = ApiSchemas['ErrorBody']['error']['code'];
// Note: typed by the contract, so a renamed code fails to compile here.
const STALE_VERSION: ErrorCode = 'stale_version';
const KEY_IN_PROGRESS: ErrorCode = 'idempotency_in_progress';

function classify(error: unknown): Outcome {
  if (!(error instanceof ApiError)) return { kind: 'stop', reason: 'offline' };
  if (error.status === 401) return { kind: 'stop', reason: 'signed-out' };
  // Note: decided by the API's error code, never by its wording.
  const current = (error.details as { current?: unknown } | undefined)?.current;
  if (error.code === STALE_VERSION && current && typeof current === 'object')
    return { kind: 'conflict', server: current as Record<string, unknown> };
  // Another tab is sending the same key right now: leave the entry for the next replay.
  if (error.code === KEY_IN_PROGRESS) return { kind: 'skip' };
  if (error.status >= 500 || error.status === 408 || error.status === 429)
    return { kind: 'stop', reason: 'server-busy' };
  return { kind: 'failed', message: error.text };
}

/** Applies a synced entry: cache the answer, give a created entity its real id, pass the new version on. */
async function applySuccess(entry: OutboxRow, saved: MerchantStore | MerchantProduct) {
  const tables = [db.outbox, db.drafts, db.adminStores, db.adminProducts];
  await db.transaction('rw', tables, async () => {
    await db.outbox.delete(entry.seq ?? -1);
    const newKey = entityKeyOf(entry.kind, saved.id);
    if (entry.op === 'create' && entry.entityId !== saved.id) {
      await db.outbox
        .where('entityKey')
        .equals(entry.entityKey)
        .modify({ entityId: saved.id, entityKey: newKey });
      const draft = await db.drafts.get(entry.entityKey);
      await db.drafts.delete(entry.entityKey);
      if (draft)
        await db.drafts.put({
          ...draft,
          key: newKey,
          id: saved.id,
          data: { ...draft.data, id: saved.id },
        });
      if (entry.kind === 'store') {
        const oldId = entry.entityId;
        await db.outbox
          .filter((row) => row.storeId === oldId)
          .modify((row) => {
            row.storeId = saved.id;
          });
        await db.drafts
          .where('storeId')
          .equals(oldId)
          .modify((row) => {
            row.storeId = saved.id;
            row.data = { ...row.data, storeId: saved.id };
          });
      }
    }
    const next = await db.outbox.where('entityKey').equals(newKey).first();
    if (next?.basedOnLocal && next.seq !== undefined) {
      await db.outbox.update(next.seq, { baseUpdatedAt: saved.updatedAt, basedOnLocal: false });
    }
    if (!next) await db.drafts.delete(newKey);
    if (entry.kind === 'store')
      await db.adminStores.put({ ...(saved as MerchantStore), userId: entry.userId });
    else await db.adminProducts.put({ ...(saved as MerchantProduct), userId: entry.userId });
  });
}

async function sendOne(entry: OutboxRow, send: Sender): Promise<Outcome> {
  await db.outbox.update(entry.seq ?? -1, { attempts: entry.attempts + 1 });
  try {
    return {
      kind: 'synced',
      saved: await send(entry.kind, requestOf(entry), entry.idempotencyKey),
    };
  } catch (error) {
    return classify(error);
  }
}

function isBlocked(entry: OutboxRow, blocked: Set<string>): boolean {
  if (blocked.has(entry.entityKey)) return true;
  return entry.storeId !== undefined && blocked.has(entityKeyOf('store', entry.storeId));
}

/** Sends the merchant's pending entries in order; answers what happened. */
export async function replayOutbox(
  userId: string,
  send: Sender = sendEntityRequest,
): Promise<ReplayReport> {
  const report: ReplayReport = { synced: [], conflicts: [], failures: [] };
  const blocked = new Set<string>();
  let after = -1;
  for (;;) {
    // Note: read one entry at a time: a success rewrites later entries (ids, versions).
    const entry = await db.outbox
      .where('seq')
      .above(after)
      .filter((row) => row.userId === userId)
      .first();
    if (entry?.seq === undefined) return report;
    after = entry.seq;
    if (entry.status !== 'pending' || isBlocked(entry, blocked)) {
      blocked.add(entry.entityKey);
      continue;
    }
    const outcome = await sendOne(entry, send);
    if (outcome.kind === 'stop') return { ...report, stopped: outcome.reason };
    if (outcome.kind === 'synced') {
      await applySuccess(entry, outcome.saved);
      report.synced.push({ entry, saved: outcome.saved });
      continue;
    }
    blocked.add(entry.entityKey);
    if (outcome.kind === 'conflict') {
      await db.outbox.update(entry.seq, { status: 'conflict', server: outcome.server });
      report.conflicts.push({ ...entry, status: 'conflict', server: outcome.server });
    } else if (outcome.kind === 'failed') {
      await db.outbox.update(entry.seq, { status: 'failed', error: outcome.message });
      report.failures.push({ ...entry, status: 'failed', error: outcome.message });
    }
  }
}
