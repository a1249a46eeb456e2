// API key schemas: the body of POST /api/api-keys, the key shown once, and the list's rows.
import * as v from 'valibot';
import { TEXT_LIMITS } from '../limits.ts';
import { API_KEY_MODES } from '../stored-states.ts';
import { STORE_ROLES } from '../team.ts';
import { requiredCappedText, TimestampSchema } from './common.ts';

/** Texts of the API key errors and checks. */
export const API_KEY_MESSAGES = {
  nameRequired: 'API key name is required',
  invalid: 'Invalid API key: check the Authorization: Bearer header',
  revoked: 'This API key has been revoked; create a new one in Admin → API keys',
  sessionRequired:
    'API keys can only be created and revoked from a signed-in session, not with a key',
  storeSessionRequired:
    'Creating a store, closing one, or changing its slug or payout address needs a signed-in session, not an API key',
  secretSessionRequired:
    'Signing secrets can only be read or rotated from a signed-in session, not with an API key',
  webhookSessionRequired:
    'Webhook settings can only be read or changed from a signed-in session, not with an API key',
  notFound: 'API key not found',
} as const;

/** A secret key as sent in `Authorization: Bearer …`: sk_test_ or sk_live_ and base62. */
export const API_KEY_PATTERN = /^sk_(?:test|live)_[0-9A-Za-z]{32,64}$/;

/** Body of POST /api/api-keys. */
export const CreateApiKeySchema = v.object({
  name: requiredCappedText(API_KEY_MESSAGES.nameRequired, 'Name', TEXT_LIMITS.name),
  /** The most the key may do: its member's role or less (absent: its member's role). */
  role: v.optional(v.picklist(STORE_ROLES, 'Role is owner, admin, staff or viewer')),
  /** The one store the key acts on (absent: every store of its member). */
  storeId: v.optional(
    v.pipe(v.string(), v.maxLength(36, 'storeId is an id'), v.uuid('storeId is an id')),
  ),
});
/** A validated new-key body. */
export type CreateApiKey = v.InferOutput<typeof CreateApiKeySchema>;

/** An API key as listed (never the key itself): its name, mode, prefix and use. */
export const ApiKeySchema = v.object({
  id: v.string(),
  name: v.string(),
  mode: v.picklist(API_KEY_MODES),
  /** The key's first characters ("sk_test_Ab12"), to recognise it. */
  keyPrefix: v.string(),
  /** The most the key may do ('owner': whatever its member's role allows). */
  role: v.picklist(STORE_ROLES),
  /** The one store it acts on; null: every store of its member. */
  storeId: v.nullable(v.string()),
  createdAt: TimestampSchema,
  lastUsedAt: v.nullable(TimestampSchema),
  revokedAt: v.nullable(TimestampSchema),
});
/** A listed API key. */
export type ApiKey = v.InferOutput<typeof ApiKeySchema>;

/** Response of POST /api/api-keys: the key, shown this once. */
export const CreatedApiKeySchema = v.object({
  ...ApiKeySchema.entries,
  key: v.pipe(v.string(), v.regex(API_KEY_PATTERN)),
});
/** A new API key with its secret. */
export type CreatedApiKey = v.InferOutput<typeof CreatedApiKeySchema>;
