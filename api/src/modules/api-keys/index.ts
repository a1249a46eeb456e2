// Routes: POST /api/api-keys, GET /api/api-keys, DELETE /api/api-keys/{id}
import { ApiKeySchema, CreateApiKeySchema, CreatedApiKeySchema, chainFacts } from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { contract } from '../../http/openapi.ts';
import { mailOriginOrNull } from '../../http/public-origin.ts';
import { sessionPlugin, signedInGuard } from '../../http/session.ts';
import { requireSessionAndSecondFactor } from '../account/second-factor.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './service.ts';

const tags = ['api-keys'];

/**
 * A merchant's secret API keys. Note: keys are created and revoked from a signed-in session only
 * (403 with a key), so a leaked key cannot mint more keys or outlive its revocation.
 */
export const apiKeysModule = ({ db, config }: AppDeps) => {
  const signedIn = signedInGuard(db);
  // Note: live keys only where payments are real (Base mainnet); test keys everywhere else.
  const mode = chainFacts(config.chain.chainId)?.testMode === false ? 'live' : 'test';
  return new Elysia({ name: 'api-keys' })
    .use(sessionPlugin(db))
    .post(
      '/api/api-keys',
      async ({ body, request, requireSessionUser, set }) => {
        const user = await requireSessionAndSecondFactor(db, { request, requireSessionUser });
        const created = await createApiKey(db, user.id, body.name, mode, {
          origin: mailOriginOrNull(config, request),
        });
        set.status = 201;
        return created;
      },
      {
        transform: signedIn,
        body: CreateApiKeySchema,
        ...contract({
          tags,
          summary:
            'Create a secret key (sk_test_… or sk_live_…); the key is in this response only, and the owner is emailed',
          ok: { 201: CreatedApiKeySchema },
          errors: ['forbidden'],
          access: 'session',
        }),
      },
    )
    .get('/api/api-keys', async ({ requireUser }) => listApiKeys(db, (await requireUser()).id), {
      transform: signedIn,
      ...contract({
        tags,
        summary: 'Your API keys (never the keys themselves)',
        ok: { 200: v.array(ApiKeySchema) },
        access: 'merchant',
      }),
    })
    .delete(
      '/api/api-keys/:id',
      async ({ params, request, requireSessionUser }) => {
        const user = await requireSessionAndSecondFactor(db, { request, requireSessionUser });
        return revokeApiKey(db, user.id, params.id);
      },
      {
        transform: signedIn,
        ...contract({
          tags,
          summary: 'Revoke your key at once (again: no change)',
          ok: { 200: ApiKeySchema },
          errors: ['forbidden', 'not_found'],
          access: 'session',
        }),
      },
    );
};
