// Routes: GET /api/stores/{id}/webhook, PUT /api/stores/{id}/webhook,
// GET /api/stores/{id}/webhook/secret, POST /api/stores/{id}/webhook/rotate-secret, GET /api/stores/{id}/webhook-deliveries,
// POST /api/stores/{id}/webhook/test, POST /api/webhook-deliveries/{id}/redeliver

import {
  API_KEY_MESSAGES,
  WEBHOOK_TEST_MESSAGES,
  WebhookDeliveryResponseSchema,
  WebhookSecretResponseSchema,
  WebhookSettingsResponseSchema,
  WebhookTestResponseSchema,
} from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { tooManyAttempts } from '../../http/attempt-limiter.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { mailOriginOrNull } from '../../http/public-origin.ts';
import { RateLimiter } from '../../http/rate-limit.ts';
import { auditActorOf } from '../audit/record.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import { ListDeliveriesQuery, SendTestWebhookBody, SetWebhookBody } from './model.ts';
import {
  getWebhookSecret,
  getWebhookSettings,
  listDeliveries,
  redeliver,
  rotateWebhookSecret,
  sendTestWebhook,
  setWebhookUrl,
} from './service.ts';

const tags = ['webhooks'];
// Note: whoever has the secret can sign webhooks the store's server trusts: read and rotated from
// a signed-in session only, with a fresh code once two-step verification is on.
const SECRET_OWNER = { secondFactor: API_KEY_MESSAGES.secretSessionRequired };
const webhookSecret = registerResponseSchema('WebhookSecret', WebhookSecretResponseSchema);
const webhookTest = registerResponseSchema('WebhookTest', WebhookTestResponseSchema);
/** Test webhooks per store: enough to try a receiver, too few to aim requests at someone. */
const TEST_WEBHOOKS = { bucket: 'webhook-test:store', max: 10, windowMs: 60 * 1000 };

/** A store owner's webhook URL, signing secret, delivery log and redelivery. */
export const webhooksModule = ({ db, config }: AppDeps) => {
  const limiter = new RateLimiter(db);
  return new Elysia({ name: 'webhooks' })
    .use(accessPlugin(db))
    .get(
      '/api/stores/:id/webhook',
      async ({ params, user }) => getWebhookSettings(db, user, params.id),
      {
        access: { session: API_KEY_MESSAGES.webhookSessionRequired },
        ...contract({
          tags,
          summary:
            "Your store's webhook URL, and its signing secret's last 4 characters (the secret itself: GET …/webhook/secret)",
          ok: { 200: WebhookSettingsResponseSchema },
          errors: ['not_found'],
        }),
      },
    )
    .put(
      '/api/stores/:id/webhook',
      async ({ params, body, request, server, user }) =>
        setWebhookUrl(
          db,
          user,
          params.id,
          body.url,
          config.allowPrivateWebhooks,
          auditActorOf({ request, server }, user, config),
        ),
      {
        body: SetWebhookBody,
        access: { session: API_KEY_MESSAGES.webhookSessionRequired },
        ...contract({
          tags,
          summary: 'Set the webhook URL (https, public addresses) or null',
          ok: { 200: WebhookSettingsResponseSchema },
          errors: ['not_found'],
        }),
      },
    )
    .get(
      '/api/stores/:id/webhook/secret',
      async ({ params, user }) => getWebhookSecret(db, user, params.id),
      {
        access: SECRET_OWNER,
        ...contract({
          tags,
          summary:
            "Your store's webhook signing secret (a signed-in session, and a fresh `X-TOTP-Code` once two-step verification is on)",
          ok: { 200: webhookSecret },
          errors: ['not_found', 'invalid_state', 'rate_limited'],
        }),
      },
    )
    .post(
      '/api/stores/:id/webhook/rotate-secret',
      async ({ params, request, server, user }) =>
        rotateWebhookSecret(
          db,
          user,
          params.id,
          { origin: mailOriginOrNull(config, request) },
          auditActorOf({ request, server }, user, config),
        ),
      {
        access: SECRET_OWNER,
        ...contract({
          tags,
          summary:
            'A new signing secret, in this answer (the old one also signs for 24 hours); a signed-in session, and a fresh `X-TOTP-Code` once two-step verification is on',
          ok: { 200: webhookSecret },
          errors: ['not_found', 'rate_limited'],
        }),
      },
    )
    .post(
      '/api/stores/:id/webhook/test',
      async ({ params, body, set, user }) => {
        // Note: counted per store once the merchant is known to own it (a stranger counts nothing).
        await getOwnStoreOrThrow(db, user, params.id, 'manage');
        const wait = await limiter.hit(TEST_WEBHOOKS, params.id);
        if (wait > 0) throw tooManyAttempts(set, wait, WEBHOOK_TEST_MESSAGES.tooMany);
        return sendTestWebhook(db, user, params.id, body.eventType, config.allowPrivateWebhooks);
      },
      {
        body: SendTestWebhookBody,
        access: 'merchant',
        ...contract({
          tags,
          summary:
            "Send a signed sample of one event to your store's webhook URL, once, and read the answer (nothing is stored or retried; the webhook-id starts msg_test_)",
          ok: { 200: webhookTest },
          errors: ['not_found', 'invalid_state', 'rate_limited'],
        }),
      },
    )
    .get(
      '/api/stores/:id/webhook-deliveries',
      async ({ params, query, user }) => listDeliveries(db, user, params.id, query.limit),
      {
        query: ListDeliveriesQuery,
        access: 'merchant',
        ...contract({
          tags,
          summary: "Your store's webhook deliveries, newest first, with attempts",
          ok: { 200: v.array(WebhookDeliveryResponseSchema) },
          errors: ['not_found'],
        }),
      },
    )
    .post(
      '/api/webhook-deliveries/:id/redeliver',
      async ({ params, set, user }) => {
        const delivery = await redeliver(db, user, params.id);
        set.status = 202;
        return delivery;
      },
      {
        access: 'merchant',
        ...contract({
          tags,
          summary: 'Send one of your deliveries again',
          ok: { 202: WebhookDeliveryResponseSchema },
          errors: ['not_found'],
        }),
      },
    );
};
