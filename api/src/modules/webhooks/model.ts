// Request schemas, messages and response shapes of the merchant's webhook routes.
import { WEBHOOK_EVENT_TYPES, type WebhookTestResponseSchema } from '@store/shared';
import * as v from 'valibot';

/** Body of PUT /api/stores/{id}/webhook: the URL, or null to stop sending. */
export const SetWebhookBody = v.object({
  url: v.nullable(v.pipe(v.string('url must be a string or null'), v.trim())),
});
/** A validated body. */
export type SetWebhookBody = v.InferOutput<typeof SetWebhookBody>;

/** Body of POST /api/stores/{id}/webhook/test: which event's sample to send. */
export const SendTestWebhookBody = v.object({
  eventType: v.picklist(
    WEBHOOK_EVENT_TYPES,
    `eventType must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
  ),
});

/** Query of the delivery log. */
export const ListDeliveriesQuery = v.object({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'limit must be a whole number'),
      v.transform(Number),
      v.minValue(1, 'limit must be at least 1'),
      v.maxValue(200, 'limit must be at most 200'),
    ),
  ),
});

/** Texts of the webhook errors. */
export const WEBHOOK_MESSAGES = {
  deliveryNotFound: 'Webhook delivery not found',
  noSecret: 'This store has no signing secret yet: save a webhook URL first',
} as const;

/** A store's webhook settings as its owner sees them: the secret only by its last 4 characters. */
export interface WebhookSettingsView {
  url: string | null;
  /** The last 4 characters of the signing secret; null: none yet. */
  secretHint: string | null;
  /** Until then webhooks also carry a signature with the previous secret. */
  previousSecretValidUntil: string | null;
  signatureScheme: 'v1';
  /** Set while sending to the URL is paused after failures in a row. */
  paused: {
    since: string;
    failures: number;
    lastError: string | null;
    nextAttemptAt: string | null;
  } | null;
}

/** A store's signing secret, read (or rotated) by its owner with the second factor. */
export interface WebhookSecretView {
  /** The `whsec_…` secret that signs this store's webhooks (Standard Webhooks, v1). */
  secret: string;
  /** Until then webhooks also carry a signature with the previous secret. */
  previousSecretValidUntil: string | null;
  signatureScheme: 'v1';
}

/** A test webhook and the receiver's answer (the shared response schema's type). */
export type WebhookTestView = v.InferOutput<typeof WebhookTestResponseSchema>;

/** One attempt of a delivery. */
export interface AttemptView {
  attemptedAt: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
}

/** One delivery with its attempts. */
export interface DeliveryView {
  id: string;
  /** The `webhook-id` header (the same on every attempt). */
  messageId: string;
  orderId: string;
  eventType: string;
  url: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  payload: unknown;
  attempts: AttemptView[];
}
