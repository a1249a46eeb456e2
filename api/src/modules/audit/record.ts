// Writing the audit log (shared/src/audit.ts): each change to money or access adds one entry, in
// the transaction of the change itself, so a change is never without its entry nor an entry
// without its change. The table is append-only (the API's role may not update or delete it).
import type { AuditAction } from '@store/shared/audit';
import type { Executor } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';
import { clientAddress, type RequestSource } from '../../http/client-address.ts';
import { type SessionUser, userAgentOf } from '../../http/session.ts';

/** Who made a change and from where. */
export interface AuditActor {
  userId: string | null;
  username: string | null;
  apiKeyId: string | null;
  apiKeyPrefix: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** The actor of a request: its user (and API key), its client's address and User-Agent. */
export function auditActorOf(
  source: RequestSource,
  user: SessionUser,
  options: { trustProxy: boolean },
): AuditActor {
  return {
    userId: user.id,
    username: user.username,
    apiKeyId: user.apiKeyId ?? null,
    apiKeyPrefix: user.apiKeyPrefix ?? null,
    ip: clientAddress(source, options),
    userAgent: userAgentOf(source.request),
  };
}

/** A field's value as an entry keeps it (an address, a slug, an amount; never a secret). */
type FieldValue = string | number | boolean | null;

/** The fields an entry says changed: each with its value before and after. */
export type AuditChanges = Record<string, { before: FieldValue; after: FieldValue }>;

/** One entry to record. */
export interface AuditEvent {
  action: AuditAction;
  /** The account it concerns: the store's owner, or the account that acted on itself. */
  accountId: string;
  storeId?: string | null;
  subjectId?: string | null;
  changes?: AuditChanges;
}

/** Records `event` by `actor`; `tx` is the transaction of the change it records. */
export async function recordAudit(
  tx: Executor,
  actor: AuditActor,
  event: AuditEvent,
): Promise<void> {
  await tx.insert(auditLog).values({
    action: event.action,
    accountId: event.accountId,
    storeId: event.storeId ?? null,
    subjectId: event.subjectId ?? null,
    changes: event.changes ?? {},
    actorUserId: actor.userId,
    actorUsername: actor.username,
    actorApiKeyId: actor.apiKeyId,
    actorApiKeyPrefix: actor.apiKeyPrefix,
    ip: actor.ip,
    userAgent: actor.userAgent,
  });
}

/** `{ field: { before, after } }` of one field. */
export function changed(field: string, before: FieldValue, after: FieldValue): AuditChanges {
  return { [field]: { before, after } };
}
