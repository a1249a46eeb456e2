// Reading a store's audit log: its own entries and its owner's account entries (API keys,
// sign-ins from a new device), newest first, filtered by action, actor and days, in cursor pages;
// and the same as a CSV file.
import {
  AUDIT_CSV_COLUMNS,
  AUDIT_LIST_LIMITS,
  type AuditAction,
  type AuditEntry,
  type AuditQuery,
} from '@store/shared/audit';
import type { StoreRole } from '@store/shared/team';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { csvAttachment } from '../analytics/movements.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import type { Caller } from '../team/access.ts';

/** Text of a cursor that is not one of ours. */
const INVALID_CURSOR = 'cursor is not valid; start again from the first page';
/** Text of a range that ends before it starts. */
const INVALID_RANGE = '`from` must not be after `to`';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Rows a CSV export reads at a time. */
const CSV_BATCH = 500;

/** An opaque cursor: the last row's time (ISO, microseconds) and id. */
function encodeCursor(at: string, id: string): string {
  return Buffer.from(`${at}|${id}`).toString('base64url');
}

/** The position a cursor names; 422 for anything that is not a cursor of ours. */
function decodeCursor(cursor: string): { at: string; id: string } {
  const [at = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !UUID.test(id) || !/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(at))
    throw new AppError('validation_failed', INVALID_CURSOR);
  return { at, id };
}

interface AuditRow {
  id: string;
  at: string;
  action: AuditAction;
  store_id: string | null;
  actor_user_id: string | null;
  actor_username: string | null;
  actor_api_key_id: string | null;
  actor_api_key_prefix: string | null;
  ip: string | null;
  user_agent: string | null;
  subject_id: string | null;
  changes: AuditEntry['changes'];
}

const toEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  at: `${row.at.slice(0, 23)}Z`,
  action: row.action,
  storeId: row.store_id,
  actor: {
    userId: row.actor_user_id,
    username: row.actor_username,
    apiKeyId: row.actor_api_key_id,
    apiKeyPrefix: row.actor_api_key_prefix,
  },
  ip: row.ip,
  userAgent: row.user_agent,
  subjectId: row.subject_id,
  changes: row.changes,
});

/**
 * The query of a store's entries (`ownerId`: its owner, whose account entries it shows its owner
 * too, never the rest of the team), newest first, after `after` when given; `limit` rows at most (none: all).
 */
function entryQuery(
  db: Database,
  store: { id: string; ownerId: string; role: StoreRole },
  query: AuditQuery,
  after?: { at: string; id: string },
  limit?: number,
) {
  const sql = db.$client;
  if (query.from && query.to && query.from > query.to)
    throw new AppError('validation_failed', INVALID_RANGE);
  const none = sql`true`;
  return sql<AuditRow[]>`
    select id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, action,
      store_id, actor_user_id, actor_username, actor_api_key_id, actor_api_key_prefix, ip,
      user_agent, subject_id, changes
    from audit_log
    where (store_id = ${store.id}::uuid
        or ${store.role === 'owner' ? sql`(store_id is null and account_id = ${store.ownerId}::uuid)` : sql`false`})
      and ${query.action ? sql`action = ${query.action}` : none}
      and ${query.actor ? sql`(actor_user_id = ${query.actor}::uuid or actor_api_key_id = ${query.actor}::uuid)` : none}
      and ${query.from ? sql`at >= ${query.from}::date::timestamp at time zone 'UTC'` : none}
      and ${query.to ? sql`at < (${query.to}::date + 1)::timestamp at time zone 'UTC'` : none}
      and ${after ? sql`(at, id) < (${after.at}::timestamptz, ${after.id}::uuid)` : none}
    order by at desc, id desc
    limit ${limit ?? null}::int`;
}

/** One page of a store's audit log and the cursor of the next (null on the last page). */
export async function listStoreAudit(
  db: Database,
  caller: Caller,
  storeId: string,
  query: AuditQuery,
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'audit');
  const limit = query.limit ?? AUDIT_LIST_LIMITS.defaultPage;
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rows = await entryQuery(db, store, query, after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    entries: page.map(toEntry),
    nextCursor: rows.length > limit && last ? encodeCursor(last.at, last.id) : null,
  };
}

/** The CSV fields of one entry, in AUDIT_CSV_COLUMNS order. */
function csvFieldsOf(entry: AuditEntry): (string | null)[] {
  return [
    entry.at,
    entry.action,
    entry.storeId,
    entry.actor.userId,
    entry.actor.username,
    entry.actor.apiKeyId,
    entry.actor.apiKeyPrefix,
    entry.ip,
    entry.userAgent,
    entry.subjectId,
    JSON.stringify(entry.changes),
  ];
}

/** The store's audit log (with the filters, newest first) as a streamed CSV file (RFC 4180). */
export async function storeAuditCsv(
  db: Database,
  caller: Caller,
  storeId: string,
  query: AuditQuery,
): Promise<Response> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'audit');
  return csvAttachment(
    entryQuery(db, store, query).cursor(CSV_BATCH),
    AUDIT_CSV_COLUMNS,
    (row) => csvFieldsOf(toEntry(row)),
    `${store.slug}-audit-log.csv`,
  );
}
