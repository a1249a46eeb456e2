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
const app = new Elysia().use(webAppModule(dist));
const get = async (path: string) => {
  const response = await app.handle(new Request(`http://localhost${path}`));
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
