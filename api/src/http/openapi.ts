// The OpenAPI 3.1 document: the valibot schemas converted to JSON Schema, each route's answers and
// error codes, the security schemes (session cookie, API key), the Idempotency-Key header on the
// mutations that honour it, and the webhooks (one payload schema and one example per event).
import { openapi } from '@elysiajs/openapi';
import {
  AccountResponseSchema,
  ApiKeySchema,
  CreatedApiKeySchema,
  CreatedOrderResponseSchema,
  DeletedResponseSchema,
  ForwardingResponseSchema,
  HealthResponseSchema,
  LinkSecretResponseSchema,
  OrderSchema,
  PaymentStatusResponseSchema,
  PaymentWalletEnvelopeSchema,
  ProductSchema,
  PublicStoreSchema,
  SignedLinkResponseSchema,
  SignedOutResponseSchema,
  StoreAnalyticsSchema,
  StoreSchema,
  UniversalOrderCreatedSchema,
  VerifiedLinkResponseSchema,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EXAMPLES,
  WEBHOOK_PAYLOAD_SCHEMAS,
  WebhookDeliveryResponseSchema,
  type WebhookEventType,
  WebhookSettingsResponseSchema,
  WebhookSigningKeyResponseSchema,
} from '@store/shared';
import { toJsonSchema } from '@valibot/to-json-schema';
import { Elysia } from 'elysia';
import type * as v from 'valibot';
import { apiReference } from './api-reference.ts';
import { ERROR_STATUS, type ErrorCode } from './errors.ts';
import { IDEMPOTENCY_EXEMPT_PREFIX } from './idempotency.ts';
import {
  DECLARED_RESPONSE_VENDOR,
  type DeclaredResponse,
  declaredResponse,
  isDeclaredResponse,
} from './response-contract.ts';
import { SESSION_COOKIE } from './session.ts';

/** Names of the response schemas in `components.schemas`, by schema (see RESPONSE_SCHEMAS). */
const schemaNames = new Map<unknown, string>();

// Note: trims, lowercasing and defaults have no JSON Schema form; `ignore` documents the rest. A
// named response schema inside another schema is a `$ref` to its entry in `components.schemas`;
// `root`, the schema an entry is made of, is written out.
/** Converts a valibot schema to JSON Schema (also `@elysiajs/openapi`'s `mapJsonSchema`). */
export const valibotToJsonSchema = (schema: unknown, root?: unknown) =>
  toJsonSchema(schema as v.GenericSchema, {
    errorMode: 'ignore',
    target: 'draft-2020-12',
    overrideSchema: ({ valibotSchema }) => {
      const name = valibotSchema === root ? undefined : schemaNames.get(valibotSchema);
      return name ? { $ref: `#/components/schemas/${name}` } : undefined;
    },
  });

/** The document's path. */
export const OPENAPI_PATH = '/api/openapi';
/** The JSON document's path. */
export const OPENAPI_JSON_PATH = `${OPENAPI_PATH}/json`;

/** Named response schemas (`components.schemas`) the routes refer to. */
const RESPONSE_SCHEMAS = {
  Account: AccountResponseSchema,
  SignedOut: SignedOutResponseSchema,
  PublicStore: PublicStoreSchema,
  OwnerStore: StoreSchema,
  StoreAnalytics: StoreAnalyticsSchema,
  Product: ProductSchema,
  Deleted: DeletedResponseSchema,
  Order: OrderSchema,
  CreatedOrder: CreatedOrderResponseSchema,
  PaymentWallet: PaymentWalletEnvelopeSchema,
  PaymentStatus: PaymentStatusResponseSchema,
  UniversalOrderCreated: UniversalOrderCreatedSchema,
  WebhookSettings: WebhookSettingsResponseSchema,
  WebhookDelivery: WebhookDeliveryResponseSchema,
  Forwarding: ForwardingResponseSchema,
  Health: HealthResponseSchema,
  WebhookSigningKey: WebhookSigningKeyResponseSchema,
  ApiKey: ApiKeySchema,
  CreatedApiKey: CreatedApiKeySchema,
  LinkSecret: LinkSecretResponseSchema,
  SignedLink: SignedLinkResponseSchema,
  VerifiedLink: VerifiedLinkResponseSchema,
} as const;

for (const [name, schema] of Object.entries(RESPONSE_SCHEMAS)) schemaNames.set(schema, name);

/** Extra response schemas a module registers (routes built beside this file). */
const extraSchemas = new Map<string, unknown>();

/** Names a response schema in `components.schemas` (routes that answer it refer to it there). */
export function registerResponseSchema<S extends v.GenericSchema>(name: string, schema: S): S {
  extraSchemas.set(name, schema);
  schemaNames.set(schema, name);
  return schema;
}

/** An answer that is not JSON (an image, a CSV file, a stream): documented, not parsed. */
export interface MediaAnswer {
  mediaType: string;
  description: string;
}

/** What a 2xx answer carries: a shared valibot schema (JSON), another media type, or nothing (304). */
export type Answer = v.GenericSchema | MediaAnswer | 'Not modified';

/** Answers by status: the 2xx ones, and 503 where a route answers its own body when down. */
export type Answers = Partial<Record<200 | 201 | 202 | 304 | 503, Answer>>;

const isSchema = (answer: Answer): answer is v.GenericSchema =>
  typeof answer === 'object' && 'kind' in answer && answer.kind === 'schema';

/** The `response` Elysia checks: each JSON answer's schema, by status. */
export type DeclaredResponses<A extends Answers> = {
  [K in keyof A as A[K] extends v.GenericSchema ? K : never]: A[K] extends v.GenericSchema
    ? DeclaredResponse<A[K]>
    : never;
};

/**
 * A route's documentation: its answers and the error codes it can answer. Note: who may call it
 * (its `security`) is the route's `access` (http/access.ts); a route without one is public.
 */
export interface RouteDoc<A extends Answers = Answers> {
  tags?: string[];
  summary: string;
  description?: string;
  /**
   * The JSON body, for a route that validates its body itself (the document takes a route's
   * `body` schema otherwise).
   */
  body?: v.GenericSchema;
  /** The answers by status: the schemas Elysia checks every answer against, and the document names. */
  ok: A;
  /**
   * Error codes of this route beyond the ones its kind always has (bad JSON, size, media type and
   * validation for a body; 401 for a merchant route; the Idempotency-Key's codes on mutations).
   */
  errors?: ErrorCode[];
}

// Note: the document's JSON answers come from the route's `response` (the plugin converts it); the
// other media types and 304 are written here.
function responseOf(status: number, answer: Answer) {
  if (answer === 'Not modified' || status === 304)
    return { description: 'Not modified (the ETag matched)' };
  if (isSchema(answer)) return undefined;
  return { description: answer.description, content: { [answer.mediaType]: {} } };
}

/**
 * A route's contract, to spread into its options: `response` (each JSON answer's schema, checked
 * by Elysia on every answer and read by the OpenAPI document) and `detail` (the rest of its
 * documentation).
 */
export function contract<const A extends Answers>(
  doc: RouteDoc<A>,
): { detail: Record<string, unknown>; response: DeclaredResponses<A> } {
  const response = Object.fromEntries(
    Object.entries(doc.ok)
      .filter(([, answer]) => isSchema(answer as Answer))
      .map(([status, schema]) => [status, declaredResponse(schema as v.GenericSchema)]),
  ) as DeclaredResponses<A>;
  // Note: a route with no JSON answer (an image, a stream) declares none: an empty `response`
  // would leave the document without its answers.
  if (Object.keys(response).length === 0)
    return { detail: routeDoc(doc) } as {
      detail: Record<string, unknown>;
      response: DeclaredResponses<A>;
    };
  return { detail: routeDoc(doc), response };
}

/** The `detail` of a route: its summary, non-JSON answers and error codes. */
function routeDoc(doc: RouteDoc) {
  return {
    ...(doc.tags ? { tags: doc.tags } : {}),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    ...(doc.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchemaOf(doc.body) } },
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(doc.ok).flatMap(([status, answer]) => {
        const documented = responseOf(Number(status), answer as Answer);
        return documented ? [[status, documented]] : [];
      }),
    ),
    'x-error-codes': doc.errors ?? [],
  } as Record<string, unknown>;
}

type Operation = Record<string, unknown> & {
  requestBody?: { content?: Record<string, unknown>; required?: boolean };
  parameters?: Record<string, unknown>[];
  responses?: Record<string, unknown>;
  security?: Record<string, string[]>[];
  'x-error-codes'?: ErrorCode[];
};
type Document = Record<string, unknown> & {
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, unknown>;
};

const MUTATING = new Set(['post', 'put', 'patch', 'delete']);

/** The JSON Schema of the error body with the codes a response can carry. */
function errorBodySchema(codes: ErrorCode[]) {
  return {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', enum: codes },
          message: { type: 'string', description: 'A message safe to show to the user' },
          details: {
            description:
              'More about the error; `stale_version` carries `{ current }`, the record as it is now',
          },
        },
      },
    },
  };
}

/** The error codes an operation can answer: its own plus those of its kind. */
function errorCodesOf(path: string, method: string, op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(op['x-error-codes'] ?? []);
  if (op.requestBody) {
    for (const code of [
      'bad_request',
      'payload_too_large',
      'unsupported_media_type',
      'validation_failed',
    ] as const)
      codes.add(code);
  }
  if ((op.parameters ?? []).some((p) => p.in === 'query')) codes.add('validation_failed');
  const merchantOnly = op.security?.length && !op.security.some((s) => Object.keys(s).length === 0);
  if (merchantOnly) codes.add('unauthorized');
  if (honoursIdempotencyKey(path, method)) {
    codes.add('idempotency_in_progress');
    codes.add('validation_failed');
  }
  codes.add('internal');
  return [...codes].sort(
    (a, b) => ERROR_STATUS[a] - ERROR_STATUS[b] || (a < b ? -1 : a > b ? 1 : 0),
  );
}

/** True for the mutations the idempotency plugin replays (every one outside /api/auth/). */
export function honoursIdempotencyKey(path: string, method: string): boolean {
  return MUTATING.has(method) && !path.startsWith(IDEMPOTENCY_EXEMPT_PREFIX);
}

const ANSWER_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '503': 'Unavailable (a part is down), with the same body',
};

/** The answers with their descriptions (the plugin writes "Response for status …"). */
function describeAnswers(responses: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, answer]) => {
      const { description } = answer as { description?: string };
      const fallback = ANSWER_DESCRIPTIONS[status];
      return [
        status,
        fallback && description?.startsWith('Response for status')
          ? { ...(answer as object), description: fallback }
          : answer,
      ];
    }),
  );
}

function finishOperation(path: string, method: string, op: Operation): Operation {
  const finished: Operation = {
    ...op,
    responses: describeAnswers(op.responses ?? {}),
    security: op.security ?? [],
  };
  // Note: every body is JSON (other media types are refused with 415).
  const json = op.requestBody?.content?.['application/json'];
  if (op.requestBody && json)
    finished.requestBody = { ...op.requestBody, content: { 'application/json': json } };
  if (honoursIdempotencyKey(path, method))
    finished.parameters = [
      ...(op.parameters ?? []),
      { $ref: '#/components/parameters/IdempotencyKey' },
    ];
  const codes = errorCodesOf(path, method, op);
  finished['x-error-codes'] = codes;
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, group] of byStatus) {
    (finished.responses as Record<string, unknown>)[String(status)] = {
      description: group.join(', '),
      content: { 'application/json': { schema: errorBodySchema(group) } },
    };
  }
  return finished;
}

/** The JSON Schema of `schema` without `$schema`; `root`: the named schema it defines, written out. */
const jsonSchemaOf = (schema: unknown, root?: unknown) => {
  const { $schema: _, ...rest } = valibotToJsonSchema(schema, root) as Record<string, unknown>;
  return rest;
};

/** The webhook's schema name in `components.schemas`: `order.paid` → `WebhookOrderPaid`. */
export const webhookSchemaName = (type: WebhookEventType) =>
  `Webhook${type
    .split(/[._]/)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('')}`;

const SIGNATURE_HEADERS = [
  ['webhook-id', 'The message id, the same on every attempt (deduplicate on it)'],
  ['webhook-timestamp', 'Unix seconds of this attempt'],
  [
    'webhook-signature',
    "Space-separated signatures: `v1,…` (HMAC-SHA256 with the store's `whsec_` secret) or `v1a,…` (Ed25519, universal links; key at /.well-known/webhook-signing-key)",
  ],
] as const;

function webhooksSection() {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          summary: type,
          description: WEBHOOK_EVENT_DESCRIPTIONS[type],
          parameters: SIGNATURE_HEADERS.map(([name, description]) => ({
            name,
            in: 'header',
            required: true,
            description,
            schema: { type: 'string' },
          })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/${webhookSchemaName(type)}` },
                example: WEBHOOK_EXAMPLES[type],
              },
            },
          },
          responses: {
            '200': { description: 'Received; any 2xx stops the retries (10 s timeout)' },
          },
        },
      },
    ]),
  );
}

/** Completes the document the plugin built from the routes (see the file header). */
export function finishDocument(raw: Document): Document {
  const paths = Object.fromEntries(
    Object.entries(raw.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, op]) => [method, finishOperation(path, method, op)]),
      ),
    ]),
  );
  const components = (raw.components ?? {}) as { schemas?: Record<string, unknown> };
  const schemas = {
    ...components.schemas,
    ...Object.fromEntries(
      Object.entries(RESPONSE_SCHEMAS).map(([name, schema]) => [
        name,
        jsonSchemaOf(schema, schema),
      ]),
    ),
    ...Object.fromEntries(
      [...extraSchemas].map(([name, schema]) => [name, jsonSchemaOf(schema, schema)]),
    ),
    ...Object.fromEntries(
      WEBHOOK_EVENT_TYPES.map((type) => [
        webhookSchemaName(type),
        jsonSchemaOf(WEBHOOK_PAYLOAD_SCHEMAS[type]),
      ]),
    ),
    ErrorBody: errorBodySchema(Object.keys(ERROR_STATUS) as ErrorCode[]),
  };
  return {
    ...raw,
    paths,
    webhooks: webhooksSection(),
    components: {
      ...components,
      schemas,
      securitySchemes: {
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The merchant session set by sign-in or sign-up (HttpOnly, SameSite=Lax)',
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A secret API key: `Authorization: Bearer sk_live_…` (sk_test_… on test chains), created in the admin or with POST /api/api-keys',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Any 1-200 characters. The first answer is kept for 24 hours and replayed (header `idempotent-replayed: true`; any secret it showed, such as a new API key, is null in the replay) for the same key and body; the same key with another body is 422, and 409 `idempotency_in_progress` while the first request runs.',
          schema: { type: 'string', minLength: 1, maxLength: 200 },
        },
      },
    },
  };
}

/**
 * The document at /api/openapi (Scalar) and /api/openapi/json. Note: the plugin builds the paths
 * from the routes; a global after-handle hook on the JSON path completes them (`finishDocument`),
 * once per version of the plugin's cached document.
 */
export function openapiDocs(info: { title: string; version: string; description?: string }) {
  const finished = new WeakMap<object, Document>();
  return new Elysia({ name: 'openapi-docs' })
    .onAfterHandle({ as: 'global' }, ({ path, response }) => {
      if (path !== OPENAPI_JSON_PATH || typeof response !== 'object' || response === null) return;
      let document = finished.get(response);
      if (!document) {
        document = finishDocument(response as Document);
        finished.set(response, document);
      }
      return document;
    })
    .use(apiReference({ title: info.title, path: OPENAPI_PATH, documentPath: OPENAPI_JSON_PATH }))
    .use(
      openapi({
        path: OPENAPI_PATH,
        specPath: OPENAPI_JSON_PATH,
        // Note: the plugin's own page loads its script from a CDN; ours is served from our origin.
        provider: null,
        documentation: {
          info,
          tags: [
            { name: 'auth', description: 'Merchant accounts and sessions' },
            { name: 'stores', description: 'Stores, their manifest and analytics' },
            { name: 'products', description: 'The catalogue' },
            { name: 'orders', description: 'Store orders and their fulfilment' },
            { name: 'payments', description: 'Deposit addresses, payment status, forwarding' },
            { name: 'universal orders', description: 'Orders of universal checkout links' },
            { name: 'webhooks', description: 'Webhook settings, deliveries and the signing key' },
          ],
        },
        // Note: the default would also leave out every path with a dot (the manifest, the icons,
        // /.well-known/…), which are API routes here.
        exclude: { paths: ['/*'], staticFile: false },
        mapJsonSchema: {
          valibot: (schema: unknown) => valibotToJsonSchema(schema),
          [DECLARED_RESPONSE_VENDOR]: (declared: unknown) =>
            isDeclaredResponse(declared) ? valibotToJsonSchema(declared.schema) : {},
        },
      }),
    );
}
