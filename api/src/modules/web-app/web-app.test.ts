// The API serving a built web app: files, client-side routes, and nothing outside the folder.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Elysia } from 'elysia';
import { webAppModule } from './index.ts';

const dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), '<h1>app shell</h1>');
writeFileSync(join(dist, 'assets/app-1234.js'), 'console.log(1)');
writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Store"}');
const BIG_SCRIPT = `export const words = ${JSON.stringify('storefront '.repeat(2000))};`;
writeFileSync(join(dist, 'assets/big-5678.js'), BIG_SCRIPT);
const app = new Elysia().use(webAppModule(dist));
const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await app.handle(new Request(`http://localhost${path}`, { headers }));
  return { response, text: await response.text() };
};

afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('web app module', () => {
  test('serves files, with long caching only for hashed assets', async () => {
    const asset = await get('/assets/app-1234.js');
    expect(asset.text).toBe('console.log(1)');
    expect(asset.response.headers.get('cache-control')).toContain('immutable');
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.text).toBe('{"name":"Store"}');
    expect(manifest.response.headers.get('cache-control')).toBe('no-cache');
  });

  test('sends text files gzipped to a client that accepts it, as they are to one that does not', async () => {
    const zipped = await app.handle(
      new Request('http://localhost/assets/big-5678.js', {
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      }),
    );
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
    expect(zipped.headers.get('content-type')).toContain('javascript');
    expect(zipped.headers.get('cache-control')).toContain('immutable');
    const bytes = new Uint8Array(await zipped.arrayBuffer());
    expect(bytes.length).toBeLessThan(BIG_SCRIPT.length / 10);
    expect(new TextDecoder().decode(Bun.gunzipSync(bytes))).toBe(BIG_SCRIPT);
    const plain = await get('/assets/big-5678.js');
    expect(plain.response.headers.get('content-encoding')).toBeNull();
    expect(plain.text).toBe(BIG_SCRIPT);
    // Small files go as they are.
    const small = await get('/assets/app-1234.js', { 'accept-encoding': 'gzip' });
    expect(small.response.headers.get('content-encoding')).toBeNull();
    expect(small.text).toBe('console.log(1)');
  });

  test('answers client-side routes with the app shell', async () => {
    expect((await get('/store/acme/product/42')).text).toBe('<h1>app shell</h1>');
  });

  test('never serves a file outside the folder', async () => {
    expect((await get('/..%2f..%2fetc%2fpasswd')).text).toBe('<h1>app shell</h1>');
  });

  test('unknown API paths stay JSON 404s', async () => {
    const { response, text } = await get('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(JSON.parse(text).error.code).toBe('not_found');
  });
});
