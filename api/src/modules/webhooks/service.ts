// The merchant's webhooks: the store's URL (checked against the SSRF rules), its secret (read and
// rotated, behind the second factor in index.ts), the delivery log and redelivery. Owners only;
// others get 404 as for a store.
import {
  WEBHOOK_EXAMPLES,
  WEBHOOK_TEST_MESSAGES,
  WEBHOOK_TIMEOUT_MS,
  type WebhookEventType,
} from '@store/shared';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  orders,
  stores,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { enqueueAccountNotice, type NoticeContext } from '../../mail/notices.ts';
import { previousSecretUntil, signingSecretsOf } from '../../webhooks/dispatcher.ts';
import { postWebhook } from '../../webhooks/http-post.ts';
import { messageIdOf, WEBHOOK_RETRY_WINDOW_MS } from '../../webhooks/outbox.ts';
import { newWebhookSecret, signWebhook } from '../../webhooks/signing.ts';
import { checkWebhookUrl } from '../../webhooks/url-safety.ts';
import { type AuditActor, changed, recordAudit } from '../audit/record.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import { authorizeStore, type Caller, memberStore } from '../team/access.ts';
import {
  type DeliveryView,
  WEBHOOK_MESSAGES,
  type WebhookSecretView,
  type WebhookSettingsView,
  type WebhookTestView,
} from './model.ts';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The store's webhook columns, and until when the previous secret still signs. */
async function webhookRow(db: Database, storeId: string) {
  const [row] = await db
    .select({
      url: stores.webhookUrl,
      secret: stores.webhookSecret,
      rotatedAt: stores.webhookSecretRotatedAt,
      previous: stores.previousWebhookSecret,
    })
    .from(stores)
    .where(eq(stores.id, storeId));
  const stored = { secret: null, previous: null, rotatedAt: null, ...row };
  const now = new Date();
  return {
    url: row?.url ?? null,
    secret: row?.secret ?? null,
    previousSecretValidUntil: previousSecretUntil(stored, now)?.toISOString() ?? null,
    /** The secrets that sign now (as the dispatcher signs). */
    signingSecrets: signingSecretsOf(stored, now),
  };
}

/** The store's webhook settings (the secret by its last 4 characters); 404 unless the merchant owns it. */
export async function getWebhookSettings(
  db: Database,
  caller: Caller,
  storeId: string,
): Promise<WebhookSettingsView> {
  await getOwnStoreOrThrow(db, caller, storeId, 'manage');
  const { secret, signingSecrets: _, ...row } = await webhookRow(db, storeId);
  const [endpoint] = row.url
    ? await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.url, row.url)).limit(1)
    : [];
  const paused = endpoint?.pausedAt
    ? {
        since: endpoint.pausedAt.toISOString(),
        failingSince: (endpoint.failingSince ?? endpoint.pausedAt).toISOString(),
        failures: endpoint.consecutiveFailures,
        lastError: endpoint.lastError,
        nextAttemptAt: endpoint.pausedUntil?.toISOString() ?? null,
      }
    : null;
  return { ...row, secretHint: secret ? secret.slice(-4) : null, signatureScheme: 'v1', paused };
}

/** The store's signing secret; 404 unless the merchant owns it, 409 before it has one. */
export async function getWebhookSecret(
  db: Database,
  caller: Caller,
  storeId: string,
): Promise<WebhookSecretView> {
  await getOwnStoreOrThrow(db, caller, storeId, 'manage');
  const { secret, previousSecretValidUntil } = await webhookRow(db, storeId);
  if (!secret) throw new AppError('invalid_state', WEBHOOK_MESSAGES.noSecret);
  return { secret, previousSecretValidUntil, signatureScheme: 'v1' };
}

/** Sets (or clears) the URL after the SSRF checks; a first URL gets a fresh secret. */
export async function setWebhookUrl(
  db: Database,
  caller: Caller,
  storeId: string,
  url: string | null,
  allowPrivate: boolean,
  actor: AuditActor,
): Promise<WebhookSettingsView> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'manage');
  const value = url === '' ? null : url;
  if (value !== null) {
    const refused = await checkWebhookUrl(value, allowPrivate);
    if (refused) throw new AppError('validation_failed', refused);
  }
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ url: stores.webhookUrl })
      .from(stores)
      .where(eq(stores.id, storeId))
      .for('update');
    await tx
      .update(stores)
      .set({
        webhookUrl: value,
        webhookSecret: sql`coalesce(${stores.webhookSecret}, ${newWebhookSecret()})`,
      })
      .where(eq(stores.id, storeId));
    if ((before?.url ?? null) !== value)
      await recordAudit(tx, actor, {
        action: 'webhook.url_changed',
        accountId: store.ownerId,
        storeId,
        changes: changed('webhookUrl', before?.url ?? null, value),
      });
  });
  return getWebhookSettings(db, caller, storeId);
}

/**
 * Sends the sample of `eventType` (the documented example, as this store's, stamped now) to the
 * store's URL, signed as its real webhooks are (v1 with the secrets that sign now), once: nothing
 * is stored or retried, and the `webhook-id` is a fresh `msg_test_…`. 404 unless the merchant owns
 * the store; 409 before it has a URL.
 */
export async function sendTestWebhook(
  db: Database,
  caller: Caller,
  storeId: string,
  eventType: WebhookEventType,
  allowPrivate: boolean,
): Promise<WebhookTestView> {
  await getOwnStoreOrThrow(db, caller, storeId, 'manage');
  const { url, signingSecrets } = await webhookRow(db, storeId);
  if (!url || signingSecrets.length === 0)
    throw new AppError('invalid_state', WEBHOOK_TEST_MESSAGES.noUrl);
  const at = new Date();
  const payload = {
    ...WEBHOOK_EXAMPLES[eventType],
    timestamp: at.toISOString(),
    storeId,
    signed: true,
  };
  const body = JSON.stringify(payload);
  const messageId = `msg_test_${crypto.randomUUID().replaceAll('-', '')}`;
  const headers = signWebhook({ scheme: 'v1', secrets: signingSecrets }, messageId, at, body);
  const result = await postWebhook(
    url,
    body,
    { ...headers },
    {
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      allowPrivate,
    },
  );
  return {
    eventType,
    url,
    messageId,
    delivered: result.delivered,
    statusCode: result.statusCode,
    latencyMs: result.latencyMs,
    error: result.error,
    responseBody: result.responseBody,
    payload,
  };
}

/** A new secret; the previous one keeps signing (beside it) for a day. */
export async function rotateWebhookSecret(
  db: Database,
  caller: Caller,
  storeId: string,
  notice: NoticeContext,
  actor: AuditActor,
): Promise<WebhookSecretView> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'manage');
  await db.transaction(async (tx) => {
    await tx
      .update(stores)
      .set({
        previousWebhookSecret: sql`${stores.webhookSecret}`,
        webhookSecret: newWebhookSecret(),
        webhookSecretRotatedAt: new Date(),
      })
      .where(eq(stores.id, storeId));
    // Note: never the secret itself, nor part of it: only that it changed. The store's owner is
    // told by email, whoever rotated it.
    await enqueueAccountNotice(
      tx,
      store.ownerId,
      { kind: 'webhook_secret_rotated', storeName: store.name, slug: store.slug },
      notice,
    );
    await recordAudit(tx, actor, {
      action: 'webhook.secret_rotated',
      accountId: store.ownerId,
      storeId,
      changes: changed('webhookSecret', '[secret]', '[new secret]'),
    });
  });
  return getWebhookSecret(db, caller, storeId);
}

/** The store's deliveries, newest first, each with its attempts. */
export async function listDeliveries(
  db: Database,
  caller: Caller,
  storeId: string,
  limit = 50,
): Promise<DeliveryView[]> {
  await getOwnStoreOrThrow(db, caller, storeId, 'read');
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.storeId, storeId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
  return withAttempts(db, rows);
}

async function withAttempts(db: Database, rows: DeliveryRow[]): Promise<DeliveryView[]> {
  const ids = rows.map((r) => r.id);
  const attempts = ids.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, ids))
        .orderBy(webhookAttempts.attemptedAt)
    : [];
  return rows.map((row) => ({
    id: row.id,
    messageId: messageIdOf(row.id),
    orderId: row.orderId,
    eventType: row.eventType,
    url: row.url,
    status: row.status,
    attemptCount: row.attemptCount,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    payload: JSON.parse(row.payload),
    attempts: attempts
      .filter((a) => a.deliveryId === row.id)
      .map((a) => ({
        attemptedAt: a.attemptedAt.toISOString(),
        statusCode: a.statusCode,
        latencyMs: a.latencyMs,
        error: a.error,
        responseBody: a.responseBody,
      })),
  }));
}

/**
 * Sends a delivery again (same `webhook-id`, same bytes) to the store's current URL, with a new
 * retry window; 404 unless the delivery belongs to one of the merchant's stores.
 */
export async function redeliver(
  db: Database,
  caller: Caller,
  deliveryId: string,
): Promise<DeliveryView> {
  const uuid = /^[0-9a-f-]{36}$/i.test(deliveryId);
  const [row] = uuid
    ? await db
        .select({
          delivery: webhookDeliveries,
          storeId: stores.id,
          url: stores.webhookUrl,
          linkUrl: orders.webhookUrl,
        })
        .from(webhookDeliveries)
        .innerJoin(stores, sql`${stores.id}::text = ${webhookDeliveries.storeId}`)
        .leftJoin(orders, eq(orders.id, webhookDeliveries.orderId))
        .where(and(eq(webhookDeliveries.id, deliveryId), memberStore(caller, sql`${stores.id}`)))
        .limit(1)
    : [];
  if (!row) throw new AppError('not_found', WEBHOOK_MESSAGES.deliveryNotFound);
  await authorizeStore(db, caller, row.storeId, 'manage');
  const now = new Date();
  const [updated] = await db
    .update(webhookDeliveries)
    .set({
      status: 'pending',
      // Note: where the outbox sends the order's events now (a link's own URL, else the store's).
      url: row.linkUrl ?? row.url ?? row.delivery.url,
      nextAttemptAt: now,
      retryUntil: new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS),
    })
    .where(eq(webhookDeliveries.id, deliveryId))
    .returning();
  const [view] = await withAttempts(db, updated ? [updated] : []);
  if (!view) throw new AppError('not_found', WEBHOOK_MESSAGES.deliveryNotFound);
  return view;
}
