// API keys: a merchant's secret keys for its servers. The key is shown once; only its SHA-256 and
// a short prefix (to recognise it in the list) are stored.
import {
  API_KEY_MESSAGES,
  type ApiKey,
  type ApiKeyMode,
  type CreatedApiKey,
  roleAtMost,
  type StoreRole,
  TEAM_MESSAGES,
} from '@store/shared';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { apiKeys } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken } from '../../http/session.ts';
import { enqueueAccountNotice, type NoticeContext } from '../../mail/notices.ts';
import { type AuditActor, changed, recordAudit } from '../audit/record.ts';
import { STORE_NOT_FOUND } from '../stores/model.ts';
import { membershipOf } from '../team/access.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Random characters of a key after its `sk_test_` / `sk_live_` (about 238 bits). */
export const API_KEY_RANDOM_LENGTH = 40;
/** Random characters the stored prefix keeps after `sk_test_` / `sk_live_`. */
const PREFIX_RANDOM_LENGTH = 4;

/** `length` uniformly random base62 characters. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    // Note: bytes of 248 and above are dropped, so each of the 62 characters is equally likely.
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A fresh secret key of the given mode: `sk_test_…` or `sk_live_…`. */
export function newApiKey(mode: ApiKeyMode): string {
  return `sk_${mode}_${randomBase62(API_KEY_RANDOM_LENGTH)}`;
}

const listColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  mode: apiKeys.mode,
  keyPrefix: apiKeys.keyPrefix,
  role: apiKeys.role,
  storeId: apiKeys.storeId,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

type ApiKeyRow = Omit<ApiKey, 'createdAt' | 'lastUsedAt' | 'revokedAt'> & {
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

/**
 * Creates a key for the merchant; the only response that ever carries the key. The owner is told
 * by email (a key made with a stolen session would otherwise go unnoticed).
 */
export async function createApiKey(
  db: Database,
  userId: string,
  name: string,
  mode: ApiKeyMode,
  notice: NoticeContext,
  actor: AuditActor,
  scope: { role?: StoreRole; storeId?: string } = {},
): Promise<ApiKeyRow & Pick<CreatedApiKey, 'key'>> {
  const role = scope.role ?? 'owner';
  const storeId = scope.storeId?.toLowerCase() ?? null;
  // Note: a key for one store acts with its member's role or less: it cannot be made above it.
  if (storeId !== null) {
    const member = await membershipOf(db, { id: userId }, storeId);
    if (!member) throw new AppError('not_found', STORE_NOT_FOUND);
    if (!roleAtMost(role, member.role))
      throw new AppError('forbidden', TEAM_MESSAGES.keyRoleTooHigh);
  }
  const key = newApiKey(mode);
  const keyPrefix = key.slice(0, `sk_${mode}_`.length + PREFIX_RANDOM_LENGTH);
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(apiKeys)
      .values({ userId, name, mode, keyHash: hashToken(key), keyPrefix, role, storeId })
      .returning(listColumns);
    await enqueueAccountNotice(
      tx,
      userId,
      { kind: 'api_key_created', keyName: name, keyPrefix },
      notice,
    );
    const row = created as ApiKeyRow;
    await recordAudit(tx, actor, {
      action: 'api_key.created',
      accountId: userId,
      subjectId: row.id,
      storeId,
      changes: {
        ...changed('name', null, name),
        ...changed('keyPrefix', null, keyPrefix),
        ...changed('role', null, role),
      },
    });
    return row;
  });
  return { ...row, key };
}

/** The merchant's keys, newest first, revoked ones included (never the keys themselves). */
export async function listApiKeys(db: Database, userId: string): Promise<ApiKeyRow[]> {
  return (await db
    .select(listColumns)
    .from(apiKeys)
    .where(eq(apiKeys.userId, userId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))) as ApiKeyRow[];
}

/**
 * Revokes the merchant's key (again: no change); 404 for a key that is not theirs. The owner is
 * told by email (a revoked key stops the servers that use it).
 */
export async function revokeApiKey(
  db: Database,
  userId: string,
  id: string,
  notice: NoticeContext,
  actor: AuditActor,
): Promise<ApiKeyRow> {
  if (!isUuid(id)) throw new AppError('not_found', API_KEY_MESSAGES.notFound);
  return db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning(listColumns);
    if (revoked) {
      const { name, keyPrefix } = revoked as ApiKeyRow;
      await enqueueAccountNotice(
        tx,
        userId,
        { kind: 'api_key_revoked', keyName: name, keyPrefix },
        notice,
      );
      await recordAudit(tx, actor, {
        action: 'api_key.revoked',
        accountId: userId,
        subjectId: id,
        changes: changed('revoked', false, true),
      });
      return revoked as ApiKeyRow;
    }
    const [row] = await tx
      .select(listColumns)
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
      .limit(1);
    if (!row) throw new AppError('not_found', API_KEY_MESSAGES.notFound);
    return row as ApiKeyRow;
  });
}

/** Revokes every key of the account that still works (a password reset asked to); how many. */
export async function revokeAllApiKeys(tx: Executor, userId: string): Promise<number> {
  const revoked = await tx
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return revoked.length;
}
