// The storefront pages' early hints: route chunks and data reads named in the HTML the API serves.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Elysia } from 'elysia';
import { securityHeaders } from '../../http/security-headers.ts';
import { webAppModule } from './index.ts';

const dist = mkdtempSync(join(tmpdir(), 'web-dist-hints-'));
mkdirSync(join(dist, '.vite'), { recursive: true });
writeFileSync(
  join(dist, 'index.html'),
  '<html><head><title>Shop</title></head><body></body></html>',
);
writeFileSync(
  join(dist, '.vite/manifest.json'),
  JSON.stringify({
    'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_link-1.js'] },
    '_link-1.js': { file: 'assets/link-1.js' },
    '_cart-1.js': { file: 'assets/cart-1.js', imports: ['_link-1.js'] },
    'src/routes/store/$slug/route.tsx?tsr-split=component': {
      file: 'assets/route-1.js',
      imports: ['_cart-1.js', '_link-1.js'],
    },
    'src/routes/store/$slug/index.tsx?tsr-split=component': { file: 'assets/store-1.js' },
    'src/routes/store/$slug/product/$productId.tsx?tsr-split=component': {
      file: 'assets/product-1.js',
      imports: ['_cart-1.js'],
    },
  }),
);
const app = new Elysia().use(webAppModule(dist));
const html = async (path: string) =>
  (await app.handle(new Request(`http://localhost${path}`))).text();

afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('early hints of the storefront pages', () => {
  test("a store page names its route chunks (not the entry's) and the store's data", async () => {
    const page = await html('/store/acme-shop');
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/route-1.js">');
    expect(page).toContain('href="/assets/store-1.js"');
    expect(page).toContain('href="/assets/cart-1.js"');
    expect(page).not.toContain('link-1.js');
    expect(page).not.toContain('product-1.js');
    expect(page).toContain(
      '<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/stores/acme-shop">',
    );
    // The products by the store's slug, fetched at once beside the store (no waterfall).
    expect(page).toContain('href="/api/stores/acme-shop/products?published=true"');
    expect(page.indexOf('modulepreload')).toBeLessThan(page.indexOf('</head>'));
  });

  test("a product page names the product's chunk and its reads", async () => {
    const id = '3f2a6c1e-4b5d-4e8f-9a0b-1c2d3e4f5a6b';
    const page = await html(`/store/acme-shop/product/${id}`);
    expect(page).toContain('href="/assets/product-1.js"');
    expect(page).not.toContain('store-1.js');
    expect(page).toContain(`href="/api/products/${id}"`);
    expect(page).toContain('href="/api/stores/acme-shop"');
    expect(page).toContain(
      `<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/products/${id}/reviews">`,
    );
    // The chain's facts, read without cookies as the page reads them.
    expect(page).toContain('<link rel="preload" as="fetch" crossorigin href="/api/health">');
  });

  test('a page with hints goes gzipped, as HTML with the page policy', async () => {
    const served = new Elysia()
      .use(securityHeaders({ frameAncestors: [], localMode: true, trustProxy: false }))
      .use(webAppModule(dist));
    const zipped = await served.handle(
      new Request('http://localhost/store/acme-shop', {
        headers: { 'accept-encoding': 'gzip, br' },
      }),
    );
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('content-type')).toStartWith('text/html');
    expect(zipped.headers.get('content-security-policy')).toContain("script-src 'self'");
    const text = new TextDecoder().decode(
      Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer())),
    );
    expect(text).toContain('href="/api/stores/acme-shop"');
    const plain = await served.handle(new Request('http://localhost/store/acme-shop'));
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await plain.text()).toContain('href="/api/stores/acme-shop"');
  });

  test('other paths and anything unexpected in one get the plain shell', async () => {
    const shell = '<html><head><title>Shop</title></head><body></body></html>';
    for (const path of [
      '/',
      '/admin',
      '/store/acme-shop/checkout',
      '/store/Acme%22%3E%3Cscript%3E',
      '/store/acme-shop/product/not-a-uuid',
    ])
      expect(await html(path)).toBe(shell);
  });

  test("the build manifest is the server's, never served", async () => {
    const text = await html('/.vite/manifest.json');
    expect(text).not.toContain('tsr-split');
    expect(text).toContain('<title>Shop</title>');
  });
});
