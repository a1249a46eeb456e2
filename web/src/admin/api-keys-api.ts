// The merchant's API key calls: create (the key comes back this once), list and revoke. Answers
// are checked against the shared schemas so an API change shows as one clear error.
import {
  type ApiKey,
  ApiKeySchema,
  type CreatedApiKey,
  CreatedApiKeySchema,
  type StoreRole,
} from '@store/shared';
import * as v from 'valibot';
import { withSecondFactor } from '../account/api.ts';
import { apiRequest } from '../lib/api.ts';

/** GET /api/api-keys: newest first, revoked ones included. */
export async function fetchApiKeys(): Promise<ApiKey[]> {
  return v.parse(v.array(ApiKeySchema), await apiRequest('GET', '/api/api-keys'));
}

/**
 * POST /api/api-keys: a new key, shown once (`code`: the second factor, once it is on), with the
 * most it may do (`role`, the member's role or less) and the one store it acts on (absent: all).
 */
export async function createApiKey(
  name: string,
  idempotencyKey: string,
  code?: string,
  scope: { role?: StoreRole; storeId?: string } = {},
): Promise<CreatedApiKey> {
  const answer = await apiRequest(
    'POST',
    '/api/api-keys',
    { name, ...scope },
    { idempotencyKey, ...withSecondFactor(code) },
  );
  return v.parse(CreatedApiKeySchema, answer);
}

/** DELETE /api/api-keys/{id}: revokes at once (again: no change). */
export async function revokeApiKey(
  id: string,
  idempotencyKey: string,
  code?: string,
): Promise<ApiKey> {
  const answer = await apiRequest('DELETE', `/api/api-keys/${encodeURIComponent(id)}`, undefined, {
    idempotencyKey,
    ...withSecondFactor(code),
  });
  return v.parse(ApiKeySchema, answer);
}
