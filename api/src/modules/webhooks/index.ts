// Routes: GET /api/stores/{id}/webhook, PUT /api/stores/{id}/webhook,
// GET /api/stores/{id}/webhook/secret, POST /api/stores/{id}/webhook/rotate-secret, GET /api/stores/{id}/webhook-deliveries,
// POST /api/webhook-deliveries/{id}/redeliver
import { API_KEY_MESSAGES, WebhookSecretResponseSchema } from '@store/shared';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context.ts';
import { registerResponseSchema, routeDoc } from '../../http/openapi.ts';
import { sessionPlugin, signedInGuard } from '../../http/session.ts';
import { requireSessionAndSecondFactor } from '../account/second-factor.ts';
import { ListDeliveriesQuery, SetWebhookBody } from './model.ts';
import {
  getWebhookSecret,
  getWebhookSettings,
  listDeliveries,
  redeliver,
  rotateWebhookSecret,
  setWebhookUrl,
} from './service.ts';

const tags = ['webhooks'];
const webhookSecret = registerResponseSchema('WebhookSecret', WebhookSecretResponseSchema);

/** A store owner's webhook URL, signing secret, delivery log and redelivery. */
export const webhooksModule = ({ db, config }: AppDeps) => {
  const signedIn = signedInGuard(db);
  // Note: whoever has the secret can sign webhooks the store's server trusts: read and rotated
  // from a signed-in session only, with a fresh code once two-step verification is on.
  const secretOwner = (session: Parameters<typeof requireSessionAndSecondFactor>[1]) =>
    requireSessionAndSecondFactor(db, session, API_KEY_MESSAGES.secretSessionRequired);
  return new Elysia({ name: 'webhooks' })
    .use(sessionPlugin(db))
    .get(
      '/api/stores/:id/webhook',
      async ({ params, requireSessionUser }) =>
        getWebhookSettings(
          db,
          (await requireSessionUser(API_KEY_MESSAGES.webhookSessionRequired)).id,
          params.id,
        ),
      {
        transform: signedIn,
        detail: routeDoc({
          tags,
          summary:
            "Your store's webhook URL, and its signing secret's last 4 characters (the secret itself: GET …/webhook/secret)",
          ok: { 200: 'WebhookSettings' },
          errors: ['not_found'],
          access: 'session',
        }),
      },
    )
    .put(
      '/api/stores/:id/webhook',
      async ({ params, body, requireSessionUser }) =>
        setWebhookUrl(
          db,
          (await requireSessionUser(API_KEY_MESSAGES.webhookSessionRequired)).id,
          params.id,
          body.url,
          config.allowPrivateWebhooks,
        ),
      {
        transform: signedIn,
        body: SetWebhookBody,
        detail: routeDoc({
          tags,
          summary: 'Set the webhook URL (https, public addresses) or null',
          ok: { 200: 'WebhookSettings' },
          errors: ['not_found'],
          access: 'session',
        }),
      },
    )
    .get(
      '/api/stores/:id/webhook/secret',
      async ({ params, request, requireSessionUser }) =>
        getWebhookSecret(db, (await secretOwner({ request, requireSessionUser })).id, params.id),
      {
        transform: signedIn,
        detail: routeDoc({
          tags,
          summary:
            "Your store's webhook signing secret (a signed-in session, and a fresh `X-TOTP-Code` once two-step verification is on)",
          ok: { 200: webhookSecret },
          errors: ['not_found', 'invalid_state', 'rate_limited'],
          access: 'session',
        }),
      },
    )
    .post(
      '/api/stores/:id/webhook/rotate-secret',
      async ({ params, request, requireSessionUser }) =>
        rotateWebhookSecret(db, (await secretOwner({ request, requireSessionUser })).id, params.id),
      {
        transform: signedIn,
        detail: routeDoc({
          tags,
          summary:
            'A new signing secret, in this answer (the old one also signs for 24 hours); a signed-in session, and a fresh `X-TOTP-Code` once two-step verification is on',
          ok: { 200: webhookSecret },
          errors: ['not_found', 'rate_limited'],
          access: 'session',
        }),
      },
    )
    .get(
      '/api/stores/:id/webhook-deliveries',
      async ({ params, query, requireUser }) =>
        listDeliveries(db, (await requireUser()).id, params.id, query.limit),
      {
        transform: signedIn,
        query: ListDeliveriesQuery,
        detail: routeDoc({
          tags,
          summary: "Your store's webhook deliveries, newest first, with attempts",
          ok: { 200: ['WebhookDelivery'] },
          errors: ['not_found'],
          access: 'merchant',
        }),
      },
    )
    .post(
      '/api/webhook-deliveries/:id/redeliver',
      async ({ params, requireUser, set }) => {
        const delivery = await redeliver(db, (await requireUser()).id, params.id);
        set.status = 202;
        return delivery;
      },
      {
        transform: signedIn,
        detail: routeDoc({
          tags,
          summary: 'Send one of your deliveries again',
          ok: { 202: 'WebhookDelivery' },
          errors: ['not_found'],
          access: 'merchant',
        }),
      },
    );
};
