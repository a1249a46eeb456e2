// API keys: a merchant's secret keys for its servers. The key is shown once; only its SHA-256 and
// a short prefix (to recognise it in the list) are stored.
import { API_KEY_MESSAGES, type ApiKey, type ApiKeyMode, type CreatedApiKey } from '@store/shared';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { apiKeys } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken } from '../../http/session.ts';
import { enqueueAccountNotice, type NoticeContext } from '../../mail/notices.ts';

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
): Promise<ApiKeyRow & Pick<CreatedApiKey, 'key'>> {
  const key = newApiKey(mode);
  const keyPrefix = key.slice(0, `sk_${mode}_`.length + PREFIX_RANDOM_LENGTH);
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(apiKeys)
      .values({ userId, name, mode, keyHash: hashToken(key), keyPrefix })
      .returning(listColumns);
    await enqueueAccountNotice(
      tx,
      userId,
      { kind: 'api_key_created', keyName: name, keyPrefix },
      notice,
    );
    return created as ApiKeyRow;
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

/** Revokes the merchant's key (again: no change); 404 for a key that is not theirs. */
export async function revokeApiKey(db: Database, userId: string, id: string): Promise<ApiKeyRow> {
  if (!isUuid(id)) throw new AppError('not_found', API_KEY_MESSAGES.notFound);
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
    .returning(listColumns);
  if (!row) throw new AppError('not_found', API_KEY_MESSAGES.notFound);
  return row as ApiKeyRow;
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
