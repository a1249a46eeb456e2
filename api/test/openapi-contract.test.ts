// The API contract on a real Postgres: the OpenAPI 3.1 document validates, lists every route of
// the app with a 2xx answer, its error codes and who may call it, carries the security schemes,
// the Idempotency-Key header and the webhooks; real answers match the documented schemas, merchant
// routes refuse an anonymous client as documented, and the web app's generated types are current.
import { describe, expect, test } from 'bun:test';
import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import {
  AccountResponseSchema,
  CreatedOrderResponseSchema,
  HealthResponseSchema,
  OrderSchema,
  ProductSchema,
  PublicStoreSchema,
  StoreAnalyticsSchema,
  StoreSchema,
  shippingFor,
  storeCheckoutTotals,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_PAYLOAD_SCHEMAS,
  WebhookSettingsResponseSchema,
} from '@store/shared';
import { customer } from '@store/stack/api-process';
import * as v from 'valibot';
import { ERROR_STATUS } from '../src/http/errors.ts';
import { OPENAPI_JSON_PATH } from '../src/http/openapi.ts';
import { API_TYPES_FILE, apiTypesSource } from '../src/http/openapi-types.ts';
import { newMerchant, storeForm } from './support/client.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner'] });

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: Record<string, string[]>[];
  parameters?: { $ref?: string; name?: string; in?: string }[];
  requestBody?: { content: Record<string, unknown> };
  'x-error-codes': string[];
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<
    string,
    {
      post: {
        requestBody: { content: Record<string, { schema: { $ref?: string }; example: unknown }> };
      };
    }
  >;
  components: {
    securitySchemes: Record<string, Record<string, string>>;
    schemas: Record<string, unknown>;
  };
}

async function openapiDocument(): Promise<Document> {
  const response = await t.app.handle(new Request(`http://localhost${OPENAPI_JSON_PATH}`));
  expect(response.status).toBe(200);
  return (await response.json()) as Document;
}

const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
const merchantOnly = (op: Operation) =>
  (op.security?.length ?? 0) > 0 && !op.security?.some((s) => Object.keys(s).length === 0);

describe('the OpenAPI document', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const doc = await openapiDocument();
    expect(doc.openapi).toStartWith('3.1');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test('lists every route of the app with a 2xx answer, its security and its error codes', async () => {
    const doc = await openapiDocument();
    const routes = t.app.routes.filter(
      (route) => !route.path.startsWith('/api/openapi') && route.path !== '/*',
    );
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) {
      const path = route.path.replace(/:([^/]+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      const name = `${route.method} ${path}`;
      expect(op, name).toBeDefined();
      if (!op) continue;
      const statuses = Object.keys(op.responses);
      expect(
        statuses.some((status) => /^2\d\d$/.test(status)),
        name,
      ).toBe(true);
      expect(op.security, name).toBeDefined();
      expect(op['x-error-codes'], name).toContain('internal');
      for (const code of op['x-error-codes']) {
        const status = String(ERROR_STATUS[code as keyof typeof ERROR_STATUS]);
        expect(statuses, `${name} ${code}`).toContain(status);
        const schema = JSON.stringify(op.responses[status]?.content?.['application/json']);
        expect(schema, `${name} ${code}`).toContain(`"${code}"`);
      }
      if (op.requestBody)
        expect(Object.keys(op.requestBody.content), name).toEqual(['application/json']);
      if (merchantOnly(op)) expect(op['x-error-codes'], name).toContain('unauthorized');
    }
    const universal = doc.paths['/api/universal-orders']?.post;
    expect(JSON.stringify(universal?.requestBody)).toContain('storePaymentAddress');
    const stale = doc.paths['/api/stores/{id}']?.put;
    expect(stale?.['x-error-codes']).toEqual(
      expect.arrayContaining(['stale_version', 'already_exists']),
    );
  });

  test('declares the session cookie and the bearer key, and the Idempotency-Key on mutations', async () => {
    const doc = await openapiDocument();
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'session',
    });
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const me = doc.paths['/api/auth/me']?.get;
    expect(me?.security).toEqual([{ sessionCookie: [] }, { apiKey: [] }]);
    for (const { path, method, op } of operations(doc)) {
      const keyed = (op.parameters ?? []).some(
        (p) => p.$ref === '#/components/parameters/IdempotencyKey',
      );
      const mutation = ['post', 'put', 'patch', 'delete'].includes(method);
      expect(keyed, `${method} ${path}`).toBe(mutation && !path.startsWith('/api/auth/'));
    }
  });

  test('has one webhook per event type with a schema and an example that parses', async () => {
    const doc = await openapiDocument();
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const type of WEBHOOK_EVENT_TYPES) {
      const content = doc.webhooks[type]?.post.requestBody.content['application/json'];
      expect(content?.schema.$ref, type).toBeString();
      expect(
        v.safeParse(WEBHOOK_PAYLOAD_SCHEMAS[type], content?.example).issues,
        type,
      ).toBeUndefined();
    }
  });

  test("says what each checkout session status means, and that only a paid order's reads completed", async () => {
    const doc = await openapiDocument();
    const text = JSON.stringify(doc.components.schemas.CheckoutSession);
    for (const status of ['open', 'awaiting_payment', 'completed', 'expired'])
      expect(text).toContain(`${status}: `);
    expect(text).toContain('completed: its order is paid (order.paid was sent): fulfil now');
    expect(text).toContain('awaiting_payment: submitted; its order is not paid yet');
  });

  test("the web app's generated API types are current (else run `bun run api:types`)", async () => {
    const checkedIn = await readFile(API_TYPES_FILE, 'utf8');
    expect(checkedIn === (await apiTypesSource())).toBe(true);
  }, 60_000);
});

/** Paths of the fields of `value` that `parsed` (its documented form) dropped. */
function undocumented(value: unknown, parsed: unknown, at = ''): string[] {
  if (Array.isArray(value) && Array.isArray(parsed))
    return value.flatMap((item, i) => undocumented(item, parsed[i], `${at}[${i}]`));
  if (!value || typeof value !== 'object' || !parsed || typeof parsed !== 'object') return [];
  return Object.entries(value).flatMap(([key, field]) =>
    key in parsed
      ? undocumented(field, (parsed as Record<string, unknown>)[key], `${at}.${key}`)
      : [`${at}.${key}`],
  );
}

/** Parses a real answer with its documented schema: no field may be missing or undocumented. */
function expectDocumented(schema: v.GenericSchema, value: unknown) {
  const parsed = v.parse(schema, value);
  expect(undocumented(value, parsed)).toEqual([]);
}

describe('real answers', () => {
  test('match the documented schemas', async () => {
    const { api } = t.owner;
    const created = await api.post('/api/stores', storeForm());
    expect(created.status).toBe(201);
    expectDocumented(StoreSchema, created.body);
    const store = created.body as { id: string; slug: string; updatedAt: string };
    expectDocumented(AccountResponseSchema, (await api.get('/api/auth/me')).body);
    expectDocumented(PublicStoreSchema, (await t.shopper.get(`/api/stores/${store.slug}`)).body);
    expectDocumented(StoreSchema, (await api.get(`/api/stores/${store.id}`)).body);
    const product = await api.post('/api/products', {
      storeId: store.id,
      title: 'Mug',
      priceUsdc: '10.00',
      inventory: 3,
    });
    expectDocumented(ProductSchema, product.body);
    const items = [{ productId: product.body.id, title: 'Mug', priceUsdc: '10.00', quantity: 1 }];
    const totals = storeCheckoutTotals(items, shippingFor('standard'));
    const order = await t.shopper.post('/api/orders', {
      storeId: store.id,
      ...customer,
      items,
      subtotalUsdc: totals.subtotalUsdc,
      shippingUsdc: totals.shippingUsdc,
      totalUsdc: totals.totalUsdc,
    });
    expect(order.status).toBe(201);
    expectDocumented(CreatedOrderResponseSchema, order.body);
    expectDocumented(v.array(OrderSchema), (await api.get('/api/orders')).body);
    expectDocumented(
      StoreAnalyticsSchema,
      (await api.get(`/api/stores/${store.id}/analytics`)).body,
    );
    expectDocumented(
      WebhookSettingsResponseSchema,
      (await api.get(`/api/stores/${store.id}/webhook`)).body,
    );
    // Note: no chain in this test: health answers 503 with the same documented body.
    expectDocumented(HealthResponseSchema, (await t.shopper.get('/api/health')).body);
  });

  test('a stale edit answers stale_version with the current record', async () => {
    const { api } = t.owner;
    const store = (await api.post('/api/stores', storeForm())).body;
    await api.put(`/api/stores/${store.id}`, { name: 'First', updatedAt: store.updatedAt });
    const stale = await api.put(`/api/stores/${store.id}`, {
      name: 'Second',
      updatedAt: store.updatedAt,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('stale_version');
    expectDocumented(StoreSchema, stale.body.error.details.current);
  });

  test('merchant-only routes refuse an anonymous client and another merchant gets nothing', async () => {
    const doc = await openapiDocument();
    const placeholder = crypto.randomUUID();
    for (const { path, method } of operations(doc).filter(({ op }) => merchantOnly(op))) {
      const url = `http://localhost${path.replace(/\{[^}]+\}/g, placeholder)}`;
      const response = await t.app.handle(
        new Request(url, {
          method: method.toUpperCase(),
          ...(method === 'get' || method === 'delete'
            ? {}
            : { headers: { 'content-type': 'application/json' }, body: '{}' }),
        }),
      );
      expect(response.status, `${method} ${path}`).toBe(401);
    }
    const other = await newMerchant(t.app, 'other');
    const store = (await t.owner.api.post('/api/stores', storeForm())).body;
    const theirs = await other.api.get(`/api/stores/${store.id}/webhook`);
    expect(theirs.status).toBe(404);
  });
});
