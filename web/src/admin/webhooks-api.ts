// The merchant's webhook calls: the store's URL, its webhook and link signing secrets (read and
// rotated with the second factor), the delivery log and redelivery. Answers are checked against
// their schemas so an API change shows as one clear error.
import {
  LinkSecretResponseSchema,
  WebhookDeliveryResponseSchema,
  WebhookSecretResponseSchema,
  WebhookSettingsResponseSchema,
  WebhookTestResponseSchema,
} from '@store/shared';
import * as v from 'valibot';
import { withSecondFactor } from '../account/api.ts';
import { apiRequest } from '../lib/api.ts';
import type { ApiSchemas } from './types.ts';

/** A store's webhook settings (the contract's type). */
export type WebhookSettings = ApiSchemas['WebhookSettings'];
/** One delivery of the log (the contract's type). */
export type WebhookDelivery = ApiSchemas['WebhookDelivery'];
/** One attempt of a delivery. */
export type WebhookAttempt = WebhookDelivery['attempts'][number];

/** A store's webhook signing secret (the contract's type). */
export type WebhookSecret = ApiSchemas['WebhookSecret'];
/** A store's link signing secret (the contract's type). */
export type LinkSecret = ApiSchemas['LinkSecret'];

// Note: the answers are read through the API's own response schemas (shared), the ones its routes
// declare and check, so the web app and the server agree on one shape.
/** A store's webhook settings (GET/PUT /api/stores/{id}/webhook): never the secret itself. */
export const WebhookSettingsSchema = WebhookSettingsResponseSchema;
/** The store's webhook signing secret, read or rotated with the second factor. */
export const WebhookSecretSchema = WebhookSecretResponseSchema;
/** The store's link signing secret, read or rotated with the second factor. */
export const LinkSecretSchema = LinkSecretResponseSchema;
/** One delivery of the log, with its attempts in the order they were made. */
export const WebhookDeliverySchema = WebhookDeliveryResponseSchema;

const storePath = (storeId: string) => `/api/stores/${encodeURIComponent(storeId)}`;

/** GET /api/stores/{id}/webhook. */
export async function fetchWebhookSettings(storeId: string): Promise<WebhookSettings> {
  const answer = await apiRequest('GET', `${storePath(storeId)}/webhook`);
  return v.parse(WebhookSettingsSchema, answer);
}

/** PUT /api/stores/{id}/webhook: sets the URL, or stops sending with null (422 when refused). */
export async function saveWebhookUrl(
  storeId: string,
  url: string | null,
  idempotencyKey: string,
): Promise<WebhookSettings> {
  const answer = await apiRequest(
    'PUT',
    `${storePath(storeId)}/webhook`,
    { url },
    {
      idempotencyKey,
    },
  );
  return v.parse(WebhookSettingsSchema, answer);
}

/** GET /api/stores/{id}/webhook/secret (`code`: the second factor, once it is on). */
export async function fetchWebhookSecret(storeId: string, code?: string): Promise<WebhookSecret> {
  const answer = await apiRequest(
    'GET',
    `${storePath(storeId)}/webhook/secret`,
    undefined,
    withSecondFactor(code),
  );
  return v.parse(WebhookSecretSchema, answer);
}

/** POST /api/stores/{id}/webhook/rotate-secret: a new secret; the old one signs for 24 hours. */
export async function rotateWebhookSecret(
  storeId: string,
  idempotencyKey: string,
  code?: string,
): Promise<WebhookSecret> {
  const answer = await apiRequest(
    'POST',
    `${storePath(storeId)}/webhook/rotate-secret`,
    undefined,
    {
      idempotencyKey,
      ...withSecondFactor(code),
    },
  );
  return v.parse(WebhookSecretSchema, answer);
}

/** GET /api/stores/{id}/link-secret: made on first read (`code`: the second factor). */
export async function fetchLinkSecret(storeId: string, code?: string): Promise<LinkSecret> {
  const answer = await apiRequest(
    'GET',
    `${storePath(storeId)}/link-secret`,
    undefined,
    withSecondFactor(code),
  );
  return v.parse(LinkSecretSchema, answer);
}

/** POST /api/stores/{id}/link-secret/rotate: links signed with the old secret are refused. */
export async function rotateLinkSecret(
  storeId: string,
  idempotencyKey: string,
  code?: string,
): Promise<LinkSecret> {
  const answer = await apiRequest('POST', `${storePath(storeId)}/link-secret/rotate`, undefined, {
    idempotencyKey,
    ...withSecondFactor(code),
  });
  return v.parse(LinkSecretSchema, answer);
}

/** GET /api/stores/{id}/webhook-deliveries: newest first. */
export async function fetchWebhookDeliveries(storeId: string): Promise<WebhookDelivery[]> {
  const answer = await apiRequest('GET', `${storePath(storeId)}/webhook-deliveries?limit=100`);
  return v.parse(v.array(WebhookDeliverySchema), answer);
}

/** POST /api/webhook-deliveries/{id}/redeliver: the same message, sent again soon. */
export async function redeliverWebhook(
  deliveryId: string,
  idempotencyKey: string,
): Promise<WebhookDelivery> {
  const path = `/api/webhook-deliveries/${encodeURIComponent(deliveryId)}/redeliver`;
  const answer = await apiRequest('POST', path, undefined, { idempotencyKey });
  return v.parse(WebhookDeliverySchema, answer);
}

/** A test webhook and the receiver's answer (the contract's type). */
export type WebhookTest = ApiSchemas['WebhookTest'];

/** POST /api/stores/{id}/webhook/test: a signed sample of one event, sent once to the store's URL. */
export async function sendTestWebhook(
  storeId: string,
  eventType: WebhookTest['eventType'],
  idempotencyKey: string,
): Promise<WebhookTest> {
  const answer = await apiRequest(
    'POST',
    `${storePath(storeId)}/webhook/test`,
    { eventType },
    { idempotencyKey },
  );
  return v.parse(WebhookTestResponseSchema, answer);
}
