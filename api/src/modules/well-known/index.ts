// Routes: GET /.well-known/webhook-signing-key
import { WebhookSigningKeyResponseSchema } from '@store/shared';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { contract } from '../../http/openapi.ts';

/** The public key that verifies universal orders' webhooks (Standard Webhooks v1a, Ed25519). */
export const wellKnownModule = ({ config }: AppDeps) =>
  new Elysia({ name: 'well-known' }).get(
    '/.well-known/webhook-signing-key',
    ({ set }) => {
      if (!config.webhookPublicKey)
        throw new AppError('unavailable', '`WEBHOOK_PUBLIC_KEY` is not configured');
      // Note: public and rarely rotated; caches may keep it for an hour.
      set.headers['cache-control'] = 'public, max-age=3600';
      return { publicKey: config.webhookPublicKey, algorithm: 'ed25519', signatureVersion: 'v1a' };
    },
    {
      ...contract({
        tags: ['webhooks'],
        summary: 'Public key of universal-order webhooks (whpk_…)',
        ok: { 200: WebhookSigningKeyResponseSchema },
        errors: ['unavailable'],
      }),
    },
  );
