// The HTTP edges: the OpenAPI document lists every route, bodies over 1 MB get 413 in the JSON
// error shape (in-process and on a real Bun server), unknown routes and bad JSON keep that shape,
// and a path that is not valid percent-encoding is 400 (never a 500 with a stack in the log).
import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REQUEST_GUARD_MESSAGES, SERVER_MAX_BODY_BYTES } from '../src/http/body-limit.ts';
import { apiClient } from './support/client.ts';
import { createTestApp, STACK_TIMEOUT_MS } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi();
let server: { stop(): Promise<void> | void } | undefined;
let baseUrl: string;

beforeAll(async () => {
  const listening = createTestApp(t.testDb).listen({
    port: 0,
    hostname: '127.0.0.1',
    maxRequestBodySize: SERVER_MAX_BODY_BYTES,
  });
  server = {
    stop: async () => {
      await listening.stop(true);
    },
  };
  baseUrl = `http://127.0.0.1:${listening.server?.port}`;
}, STACK_TIMEOUT_MS);
afterAll(async () => {
  await server?.stop();
}, STACK_TIMEOUT_MS);

const ROUTES = {
  '/api/auth/sign-up': ['post'],
  '/api/auth/sign-in': ['post'],
  '/api/auth/sign-out': ['post'],
  '/api/auth/me': ['get'],
  '/api/stores': ['get', 'post'],
  '/api/stores/{id}': ['get', 'put'],
  '/api/stores/{id}/products': ['get'],
  '/api/stores/{id}/analytics': ['get'],
  '/api/products': ['post'],
  '/api/products/{id}': ['get', 'put', 'delete'],
  '/api/orders': ['get', 'post'],
  '/api/orders/{id}': ['get', 'patch'],
};

describe('OpenAPI', () => {
  test('/api/openapi/json documents every shop and merchant route with its body schema', async () => {
    const response = await t.app.handle(new Request('http://localhost/api/openapi/json'));
    expect(response.status).toBe(200);
    const doc = (await response.json()) as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
    };
    for (const [path, methods] of Object.entries(ROUTES))
      for (const method of methods) expect(doc.paths[path]?.[method]).toBeDefined();
    const createOrder = doc.paths['/api/orders']?.post?.requestBody?.content['application/json'];
    expect(JSON.stringify(createOrder)).toContain('shippingAddress');
    const html = await t.app.handle(new Request('http://localhost/api/openapi'));
    expect(html.status).toBe(200);
  });

  test('the reference page loads its script from our origin, under a policy that allows no other', async () => {
    const page = await t.app.handle(new Request('http://localhost/api/openapi'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    // Every URL the page names is on our origin, and no other host appears anywhere in it.
    const urls = [...html.matchAll(/\b(?:src|href|data-url)="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(urls.length).toBeGreaterThanOrEqual(2);
    for (const url of urls)
      expect(new URL(url, 'http://localhost').origin).toBe('http://localhost');
    expect(html).not.toMatch(/\/\/[a-z0-9-]+\.[a-z0-9.-]+/i);
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toHaveLength(1);
    const policy = Object.fromEntries(
      (page.headers.get('content-security-policy') ?? '')
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['connect-src']).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    const scriptUrl = /<script src="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(scriptUrl).toStartWith('/api/openapi/');
    const script = await t.app.handle(new Request(`http://localhost${scriptUrl}`));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    const body = await script.text();
    expect(body.length).toBeGreaterThan(1_000_000);
    expect(body).toContain('api-reference');
    const zipped = await t.app.handle(
      new Request(`http://localhost${scriptUrl}`, { headers: { 'accept-encoding': 'gzip' } }),
    );
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(
      new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer()))),
    ).toBe(body);
  });
});

describe('body limit', () => {
  const big = JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 10) });

  test('in-process: a declared length over 1 MB is 413 in the JSON shape', async () => {
    const response = await t.app.handle(
      new Request('http://localhost/api/orders', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
        body: big,
      }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { code: 'payload_too_large', message: 'The request body is larger than 1 MB' },
    });
  });

  test('real server: 1-4 MB bodies get the JSON 413, with or without a length', async () => {
    const declared = await fetch(`${baseUrl}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { code: string } }).error.code).toBe(
      'payload_too_large',
    );
    const chunked = await fetch(`${baseUrl}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { error: { code: string } }).error.code).toBe(
      'payload_too_large',
    );
  });

  test('real server: over 4 MB Bun refuses without reading; a small body goes through', async () => {
    const huge = await fetch(`${baseUrl}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(SERVER_MAX_BODY_BYTES + 1),
    });
    expect(huge.status).toBe(413);
    const small = await fetch(`${baseUrl}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(small.status).toBe(422);
  });
});

describe('error shape', () => {
  test('unknown API routes are 404 and malformed JSON is 400, both in the JSON shape', async () => {
    const api = apiClient(t.app);
    expect((await api.get('/api/nowhere')).body).toEqual({
      error: { code: 'not_found', message: 'Not found' },
    });
    const response = await t.app.handle(
      new Request('http://localhost/api/orders', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"storeId":',
      }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('bad_request');
  });
});

describe('request guards', () => {
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    t.app.handle(
      new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      }),
    );
  const errorOf = async (response: Response) =>
    ((await response.json()) as { error: { code: string; message: string } }).error;

  test('a body nested deeper than any request is 400, not a stack overflow', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    for (const path of ['/api/orders', '/api/universal-orders']) {
      const response = await post(path, deep);
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toEqual({
        code: 'bad_request',
        message: 'The request body is nested more than 32 levels deep',
      });
    }
  });

  test('a NUL character in a body or a URL is refused, never a 500', async () => {
    const signIn = await post(
      '/api/auth/sign-in',
      JSON.stringify({ username: 'a\u0000b', password: 'x'.repeat(9) }),
    );
    expect(signIn.status).toBe(422);
    expect((await errorOf(signIn)).message).toBe('Text must not contain NUL characters');
    const universal = await post(
      '/api/universal-orders',
      JSON.stringify({
        storeName: 'Shop\u0000',
        items: [{ title: 'a\u0000', priceUsdc: '1', quantity: 1 }],
      }),
    );
    expect(universal.status).toBe(422);
    for (const path of ['/api/stores/a%00b', '/api/stores/a%00b/products']) {
      const response = await t.app.handle(new Request(`http://localhost${path}`));
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toBe('Text must not contain NUL characters');
    }
  });
});

describe('malformed URLs', () => {
  const PATHS = [
    '/%E0%A4%A',
    '/store/%E0%A4%A/cart',
    '/store/demo/%ZZ',
    '/api/%E0%A4%A',
    '/api/stores/%E0%A4%A',
    '/api/uploads/%E0%A4%A/logo.png',
    '/api/orders/%C3',
  ];

  test('a path that does not decode is 400 in the JSON shape, for API and web-app routes, with nothing logged', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'malformed-url-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    // Note: the app is built after the spy, so its error handler logs through it.
    const logged = spyOn(console, 'error');
    const listening = createTestApp(t.testDb, { WEB_DIST: dist }).listen({
      port: 0,
      hostname: '127.0.0.1',
    });
    try {
      const origin = `http://127.0.0.1:${listening.server?.port}`;
      for (const path of PATHS) {
        const inProcess = await listening.handle(new Request(`http://localhost${path}`));
        const overHttp = await fetch(`${origin}${path}`);
        for (const response of [inProcess, overHttp]) {
          expect({ path, status: response.status }).toEqual({ path, status: 400 });
          expect(response.headers.get('content-type')).toContain('application/json');
          expect(await response.json()).toEqual({
            error: { code: 'bad_request', message: REQUEST_GUARD_MESSAGES.malformedPath },
          });
        }
      }
      // A well-formed path still works, an encoded one included.
      expect((await fetch(`${origin}/store/caf%C3%A9`)).status).toBe(200);
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
      await listening.stop(true);
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
