// Each store installs as its own app from the server: its web manifest and the PNG icons drawn
// from its logo, on a real Postgres; unknown and inactive stores have neither.
import { beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import type { App } from '../src/app.ts';
import { iconMark, initials } from '../src/modules/store-manifest/icon.ts';
import { storeForm } from './support/client.ts';
import { createTestApp } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner'] });

const get = (app: App, path: string, headers: Record<string, string> = {}) =>
  app.handle(new Request(`http://localhost${path}`, { headers }));

interface Manifest {
  icons: { src: string; sizes: string; type: string; purpose: string }[];
  [field: string]: unknown;
}
const manifestOf = async (response: Response) => (await response.json()) as Manifest;

/** A decoded 8-bit RGBA PNG (what resvg writes): its size and a pixel reader. */
function decodePng(bytes: Uint8Array) {
  const data = Buffer.from(bytes);
  expect(data.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (offset < data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('ascii', offset + 4, offset + 8);
    const body = data.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      expect([body[8], body[9], body[12]]).toEqual([8, 6, 0]); // 8-bit RGBA, not interlaced
    }
    if (type === 'IDAT') idat.push(body);
    offset += length + 12;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  expect(raw.length).toBe(height * (stride + 1));
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x] ?? 0;
      const a = x >= 4 ? (pixels[y * stride + x - 4] ?? 0) : 0;
      const b = y > 0 ? (pixels[(y - 1) * stride + x] ?? 0) : 0;
      const c = x >= 4 && y > 0 ? (pixels[(y - 1) * stride + x - 4] ?? 0) : 0;
      const paeth = () => {
        const p = a + b - c;
        const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      };
      const predictor = [0, a, b, (a + b) >> 1, paeth()][filter ?? 0] ?? 0;
      pixels[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  const pixel = (x: number, y: number) => {
    const at = (Math.floor(y) * width + Math.floor(x)) * 4;
    return [...pixels.subarray(at, at + 4)];
  };
  return { width, height, pixel };
}

const hexPixel = (hex: string) => [
  ...[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)),
  255,
];

describe('GET /store/{slug}/manifest.webmanifest', () => {
  let store: { id: string; slug: string };
  beforeAll(async () => {
    const created = await t.owner.api.post(
      '/api/stores',
      storeForm({
        name: 'Aurora Goods and Curiosities',
        description: 'Cosy things',
        logoUrl: '🌌',
        theme: 'light',
        primaryColor: '#0f766e',
      }),
    );
    expect(created.status).toBe(201);
    store = created.body;
  });

  test('answers the store as its own installable app', async () => {
    const response = await get(t.app, `/store/${store.slug}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/manifest+json');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const manifest = await manifestOf(response);
    const base = `/store/${store.slug}/`;
    expect(manifest).toMatchObject({
      id: base,
      name: 'Aurora Goods and Curiosities',
      short_name: 'Aurora Goods',
      description: 'Cosy things',
      start_url: base,
      scope: base,
      display: 'standalone',
      theme_color: '#0f766e',
      background_color: '#f8fafc',
    });
    expect(
      manifest.icons.map((icon: Record<string, string>) => [icon.sizes, icon.type, icon.purpose]),
    ).toEqual([
      ['192x192', 'image/png', 'any'],
      ['512x512', 'image/png', 'any'],
      ['512x512', 'image/png', 'maskable'],
    ]);
    for (const icon of manifest.icons) expect(icon.src.startsWith(base)).toBe(true);
  });

  test('a client holding the manifest gets 304', async () => {
    const path = `/store/${store.slug}/manifest.webmanifest`;
    const etag = (await get(t.app, path)).headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    expect((await get(t.app, path, { 'if-none-match': etag })).status).toBe(304);
  });

  test('icons decode as PNGs of their size: the logo on the store colour', async () => {
    const manifest = await manifestOf(
      await get(t.app, `/store/${store.slug}/manifest.webmanifest`),
    );
    for (const icon of manifest.icons as { src: string; sizes: string; purpose: string }[]) {
      const response = await get(t.app, icon.src);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
      const png = decodePng(new Uint8Array(await response.arrayBuffer()));
      const size = Number(icon.sizes.split('x')[0]);
      expect([png.width, png.height]).toEqual([size, size]);
      const teal = hexPixel('#0f766e');
      // A maskable icon is full-bleed; an "any" icon has its own rounded, transparent corners.
      if (icon.purpose === 'maskable') expect(png.pixel(1, 1)).toEqual(teal);
      else expect(png.pixel(1, 1)[3]).toBe(0);
      expect(png.pixel(size / 2, size * 0.15)).toEqual(teal);
      // The Milky Way emoji sits in the middle, in its own colours.
      expect(png.pixel(size / 2, size / 2)).not.toEqual(teal);
    }
  });

  test('a new logo changes the icons and their URLs', async () => {
    const path = `/store/${store.slug}/manifest.webmanifest`;
    const before = (await manifestOf(await get(t.app, path))).icons[0]?.src ?? '';
    const updated = await t.owner.api.put(`/api/stores/${store.id}`, { logoUrl: 'AG' });
    expect(updated.status).toBe(200);
    const after = (await manifestOf(await get(t.app, path))).icons[0]?.src ?? '';
    expect(after).not.toBe(before);
    const png = decodePng(new Uint8Array(await (await get(t.app, after)).arrayBuffer()));
    // White letters on the teal: somewhere across the middle row a pixel is white.
    const row = Array.from({ length: 192 }, (_, x) => png.pixel(x, 96));
    expect(row).toContainEqual([255, 255, 255, 255]);
  });

  test('a picture logo gives the initials; a light colour gets dark ink', async () => {
    const created = await t.owner.api.post(
      '/api/stores',
      storeForm({
        name: 'Pale Yard',
        logoUrl: 'https://cdn.example/logo.png',
        primaryColor: '#fde68a',
      }),
    );
    const png = decodePng(
      new Uint8Array(
        await (await get(t.app, `/store/${created.body.slug}/icon-512.png`)).arrayBuffer(),
      ),
    );
    const row = Array.from({ length: 512 }, (_, x) => png.pixel(x, 256));
    expect(row).toContainEqual([0x0b, 0x10, 0x20, 255]);
    expect(iconMark({ name: 'Pale Yard', logoUrl: 'https://cdn.example/logo.png' })).toEqual({
      kind: 'text',
      text: 'PY',
    });
  });

  test('unknown, inactive and malformed stores have no manifest and no icons', async () => {
    const closed = await t.owner.api.post('/api/stores', storeForm({ isActive: false }));
    expect(closed.status).toBe(201);
    for (const slug of ['no-such-store', closed.body.slug, 'Not_A_Slug', '..']) {
      for (const file of ['manifest.webmanifest', 'icon-192.png', 'icon-maskable-512.png']) {
        const response = await get(t.app, `/store/${encodeURIComponent(slug)}/${file}`);
        expect(response.status).toBe(404);
      }
    }
  });

  test('served before the web app, whose shell answers every other path', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'store-manifest-dist-'));
    try {
      await writeFile(join(dist, 'index.html'), '<!doctype html><title>shell</title>');
      const app = createTestApp(t.testDb, { WEB_DIST: dist });
      const manifest = await get(app, `/store/${store.slug}/manifest.webmanifest`);
      expect(manifest.headers.get('content-type')).toBe('application/manifest+json');
      const icon = await get(app, `/store/${store.slug}/icon-192.png`);
      expect(icon.headers.get('content-type')).toBe('image/png');
      expect((await get(app, '/store/no-such-store/manifest.webmanifest')).status).toBe(404);
      expect(await (await get(app, `/store/${store.slug}/`)).text()).toContain('shell');
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });
});

describe('what a store icon shows', () => {
  test.each([
    ['🌌', { kind: 'emoji', count: 1 }],
    ['☕️', { kind: 'emoji', count: 1 }],
    ['🇺🇸', { kind: 'emoji', count: 1 }],
    ['👩‍💻', { kind: 'emoji', count: 1 }],
    ['🍵🍰', { kind: 'emoji', count: 2 }],
    ['AG', { kind: 'text', text: 'AG' }],
    ['Ж', { kind: 'text', text: 'Ж' }],
    ['https://cdn.example/a.png', { kind: 'text', text: 'AG' }],
    ['/uploads/a.png', { kind: 'text', text: 'AG' }],
    ['', { kind: 'text', text: 'AG' }],
    ['東', { kind: 'text', text: 'AG' }],
  ] as const)('logo %j', (logoUrl, expected) => {
    const mark = iconMark({ name: 'aurora goods', logoUrl });
    if (expected.kind === 'emoji') {
      expect(mark.kind).toBe('emoji');
      if (mark.kind === 'emoji') expect(mark.files).toHaveLength(expected.count);
    } else expect(mark).toEqual(expected);
  });

  test('initials come from the first two words the font can draw, else "$"', () => {
    expect(initials('Aurora Goods and Curiosities')).toBe('AG');
    expect(initials('élan')).toBe('É');
    expect(initials('東京 ストア')).toBe('$');
  });
});
