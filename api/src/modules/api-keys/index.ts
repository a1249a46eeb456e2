// Routes: POST /api/api-keys, GET /api/api-keys, DELETE /api/api-keys/{id}
import {
  API_KEY_MESSAGES,
  ApiKeySchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
  chainFacts,
} from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { contract } from '../../http/openapi.ts';
import { mailOriginOrNull } from '../../http/public-origin.ts';
import { auditActorOf } from '../audit/record.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './service.ts';

const tags = ['api-keys'];

/**
 * A merchant's secret API keys. Note: keys are created and revoked from a signed-in session only
 * (403 with a key), so a leaked key cannot mint more keys or outlive its revocation.
 */
export const apiKeysModule = ({ db, config }: AppDeps) => {
  // Note: live keys only where payments are real (Base mainnet); test keys everywhere else.
  const mode = chainFacts(config.chain.chainId)?.testMode === false ? 'live' : 'test';
  return new Elysia({ name: 'api-keys' })
    .use(accessPlugin(db))
    .post(
      '/api/api-keys',
      async ({ body, request, server, set, user }) => {
        const notice = { origin: mailOriginOrNull(config, request) };
        const actor = auditActorOf({ request, server }, user, config);
        const created = await createApiKey(db, user.id, body.name, mode, notice, actor, {
          role: body.role,
          storeId: body.storeId,
        });
        set.status = 201;
        return created;
      },
      {
        body: CreateApiKeySchema,
        access: { secondFactor: API_KEY_MESSAGES.sessionRequired },
        ...contract({
          tags,
          summary:
            'Create a secret key (sk_test_… or sk_live_…); the key is in this response only, and the owner is emailed',
          ok: { 201: CreatedApiKeySchema },
          errors: ['forbidden', 'not_found'],
        }),
      },
    )
    .get('/api/api-keys', async ({ user }) => listApiKeys(db, user.id), {
      access: 'merchant',
      ...contract({
        tags,
        summary: 'Your API keys (never the keys themselves)',
        ok: { 200: v.array(ApiKeySchema) },
      }),
    })
    .delete(
      '/api/api-keys/:id',
      async ({ params, request, server, user }) =>
        revokeApiKey(
          db,
          user.id,
          params.id,
          { origin: mailOriginOrNull(config, request) },
          auditActorOf({ request, server }, user, config),
        ),
      {
        access: { secondFactor: API_KEY_MESSAGES.sessionRequired },
        ...contract({
          tags,
          summary: 'Revoke your key at once (again: no change)',
          ok: { 200: ApiKeySchema },
          errors: ['forbidden', 'not_found'],
        }),
      },
    );
};
