// Routes: GET /api/stores/{id}/webhook, PUT /api/stores/{id}/webhook,
// POST /api/stores/{id}/webhook/rotate-secret, GET /api/stores/{id}/webhook-deliveries,
// POST /api/webhook-deliveries/{id}/redeliver
import { Elysia } from 'elysia';
import type { AppDeps } from '../../app.ts';
import { routeDoc } from '../../http/openapi.ts';
import { sessionPlugin, signedInGuard } from '../../http/session.ts';
import { ListDeliveriesQuery, SetWebhookBody } from './model.ts';
import {
  getWebhookSettings,
  listDeliveries,
  redeliver,
  rotateWebhookSecret,
  setWebhookUrl,
} from './service.ts';

const tags = ['webhooks'];

/** A store owner's webhook URL, signing secret, delivery log and redelivery. */
export const webhooksModule = ({ db, config }: AppDeps) => {
  const signedIn = signedInGuard(db);
  return new Elysia({ name: 'webhooks' })
    .use(sessionPlugin(db))
    .get(
      '/api/stores/:id/webhook',
      async ({ params, requireSessionUser }) =>
        getWebhookSettings(db, (await requireSessionUser()).id, params.id),
      {
        transform: signedIn,
        detail: routeDoc({
          tags,
          summary: "Your store's webhook URL and secret",
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
          (await requireSessionUser()).id,
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
    .post(
      '/api/stores/:id/webhook/rotate-secret',
      async ({ params, requireSessionUser }) =>
        rotateWebhookSecret(db, (await requireSessionUser()).id, params.id),
      {
        transform: signedIn,
        detail: routeDoc({
          tags,
          summary: 'A new signing secret (the old one also signs for 24 hours)',
          ok: { 200: 'WebhookSettings' },
          errors: ['not_found'],
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
