// Security headers on every page and API response: the web app's HTML carries a policy without
// inline script, every response nosniff, a referrer and an opener policy; API responses are never
// stored by a cache; HSTS only over HTTPS outside local mode; framing only by configured origins.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_XPUB } from '@store/stack/keys';
import { ConfigError, loadApiConfig } from '../src/config.ts';
import { apiClient } from './support/client.ts';
import { createTestApp } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner'] });

// A built web app as the API serves it (WEB_DIST): the shell, a hashed asset, the service worker.
const dist = mkdtempSync(join(tmpdir(), 'security-headers-dist-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
writeFileSync(join(dist, 'assets/index-1234.js'), 'console.log(1)');
writeFileSync(join(dist, 'sw.js'), 'self.skipWaiting()');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

/** GET `path` of an app with the web app and `env`, with `headers`. */
async function get(path: string, env: Record<string, string> = {}, headers = {}) {
  const app = createTestApp(t.testDb, { WEB_DIST: dist, ...env });
  return app.handle(new Request(`http://localhost${path}`, { headers }));
}

/** The directives of a Content-Security-Policy, by name. */
function directives(policy: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (policy ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name, values]),
  );
}

describe('the web app’s pages', () => {
  test('carry a Content-Security-Policy without inline script, and the common headers', async () => {
    for (const path of ['/', '/store/aurora/checkout', '/admin']) {
      const response = await get(path);
      expect(response.headers.get('content-type')).toStartWith('text/html');
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['style-src']).toEqual(["'self'"]);
      expect(csp['img-src']).toEqual(["'self'", 'https:', 'data:']);
      expect(csp['connect-src']).toEqual(["'self'"]);
      expect(csp['manifest-src']).toEqual(["'self'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['base-uri']).toEqual(["'self'"]);
      expect(csp['form-action']).toEqual(["'self'"]);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      // The shell is revalidated as before; no HSTS over plain HTTP.
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
  });

  test('scripts and the service worker get nosniff but not the page policy', async () => {
    for (const path of ['/assets/index-1234.js', '/sw.js']) {
      const response = await get(path);
      expect(response.headers.get('content-type')).toStartWith('text/javascript');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      // Note: a policy on sw.js would govern the worker's own fetches of merchants' images.
      expect(response.headers.get('content-security-policy')).toBeNull();
    }
  });

  test('the web app’s HTML has no inline script or style that the policy would refuse', () => {
    const html = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toContain('src=');
      expect(body?.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
  });

  test('FRAME_ANCESTORS lets the named origins frame the pages', async () => {
    const response = await get('/', {
      FRAME_ANCESTORS: 'https://shop.example.com, https://other.example',
    });
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp['frame-ancestors']).toEqual(['https://shop.example.com', 'https://other.example']);
    expect(response.headers.get('x-frame-options')).toBeNull();
    const base = {
      DATABASE_URL: 'postgres://localhost/x',
      RPC_URL: 'http://127.0.0.1:9',
      CHAIN_ID: '31337',
      USDC_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      TREASURY_ADDRESS: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      RELAYER_ADDRESS: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      PAYMENT_XPUB: TEST_XPUB,
    };
    expect(loadApiConfig(base).frameAncestors).toEqual([]);
    expect(loadApiConfig({ ...base, FRAME_ANCESTORS: 'https://a.example' }).frameAncestors).toEqual(
      ['https://a.example'],
    );
    for (const wrong of ['https://shop.example.com/', '*', "'self'", 'https://a.example https://b'])
      expect(() => loadApiConfig({ ...base, FRAME_ANCESTORS: wrong })).toThrow(
        new ConfigError(
          '`FRAME_ANCESTORS` must be a comma-separated list of origins (https://shop.example.com)',
        ),
      );
  });
});

describe('API responses', () => {
  test('public and merchant JSON: nosniff and Cache-Control: no-store', async () => {
    const app = createTestApp(t.testDb, { WEB_DIST: dist });
    const store = await t.owner.api.post('/api/stores', {
      name: 'Headers',
      slug: 'headers-shop',
      paymentAddress: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
    });
    expect(store.status).toBe(201);
    const owner = apiClient(app, t.owner.cookie);
    const shopper = apiClient(app);
    for (const response of [
      await owner.get('/api/auth/me'),
      await owner.get('/api/stores?mine=true'),
      await owner.get('/api/orders'),
      await shopper.get('/api/stores/headers-shop'),
      await shopper.get('/api/auth/me'),
      await shopper.get('/api/nothing-here'),
      await shopper.post('/api/orders', { storeId: 'x' }),
    ]) {
      expect(response.headers.get('content-type')).toStartWith('application/json');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('content-security-policy')).toBeNull();
    }
    // A document that sets its own caching keeps it.
    const key = await shopper.get('/.well-known/webhook-signing-key');
    expect(key.headers.get('x-content-type-options')).toBe('nosniff');
    expect(key.headers.get('cache-control')).not.toBe('no-store');
  });

  test('errors thrown before any route (a body over 1 MB) carry them too', async () => {
    const app = createTestApp(t.testDb);
    const response = await app.handle(
      new Request('http://localhost/api/orders', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
        body: '{}',
      }),
    );
    expect(response.status).toBe(413);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('Strict-Transport-Security', () => {
  const production = { LOCAL_MODE: 'false', TRUST_PROXY: 'true' };
  const hsts = async (env: Record<string, string>, headers: Record<string, string>) =>
    (await get('/api/stores', env, headers)).headers.get('strict-transport-security');

  test('over HTTPS at a trusted proxy, outside local mode', async () => {
    expect(await hsts(production, { 'x-forwarded-proto': 'https' })).toBe(
      'max-age=31536000; includeSubDomains',
    );
    expect(
      (await get('/', production, { 'x-forwarded-proto': 'https' })).headers.get(
        'strict-transport-security',
      ),
    ).toBe('max-age=31536000; includeSubDomains');
  });

  test('never over HTTP, from an untrusted X-Forwarded-Proto, or in local mode', async () => {
    expect(await hsts(production, { 'x-forwarded-proto': 'http' })).toBeNull();
    expect(await hsts(production, {})).toBeNull();
    expect(await hsts({ LOCAL_MODE: 'false' }, { 'x-forwarded-proto': 'https' })).toBeNull();
    expect(
      await hsts({ LOCAL_MODE: 'true', TRUST_PROXY: 'true' }, { 'x-forwarded-proto': 'https' }),
    ).toBeNull();
  });
});
