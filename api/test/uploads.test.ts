// Image uploads on a real Postgres: checked by content (not name or header), re-encoded by sharp
// into the sizes pages use, SVG logos drawn to PNG and refused when they link elsewhere or use
// filters, served with long caching and nosniff; merchants only, a limited number an hour each;
// the work done in a process of its own, so the API answers meanwhile and a costly image is
// stopped at its time limit.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UPLOAD_KINDS, UPLOAD_MESSAGES } from '@store/shared';
import sharp from 'sharp';
import type { App } from '../src/app.ts';
import { RATE_LIMIT_MESSAGES } from '../src/http/rate-limit.ts';
import { apiClient, newMerchant, storeForm } from './support/client.ts';
import { createTestApp } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner'] });
const uploadsDir = mkdtempSync(join(tmpdir(), 'uploads-'));
let app: App;

beforeAll(() => {
  app = createTestApp(t.testDb, { UPLOADS_DIR: uploadsDir });
});
afterAll(() => rmSync(uploadsDir, { recursive: true, force: true }));

const upload = async (
  kind: string,
  body: Uint8Array | string,
  contentType: string,
  cookie: string = t.owner.cookie,
  on: App = app,
) => {
  const response = await on.handle(
    new Request(`http://localhost/api/uploads/${kind}`, {
      method: 'POST',
      headers: { 'content-type': contentType, ...(cookie ? { cookie } : {}) },
      body,
    }),
  );
  return {
    status: response.status,
    headers: response.headers,
    // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely and assert on them.
    body: (await response.json()) as any,
  };
};
const fetchImage = async (path: string) => {
  const response = await app.handle(new Request(`http://localhost${path}`));
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
};

/**
 * Runs `work` while asking a cheap route of `on` every 20 ms (GET /api/auth/me: one session read
 * in Postgres; /api/health here waits for viem's retries against the test's absent chain): its
 * result, and the longest any request waited, from when it was due to its answer. A render on the
 * event loop shows here as a wait as long as the render.
 */
async function waitsDuring<T>(on: App, work: () => Promise<T>) {
  let done = false;
  let longestWaitMs = 0;
  const probe = (async () => {
    let due = performance.now();
    while (!done) {
      const response = await on.handle(
        new Request('http://localhost/api/auth/me', { headers: { cookie: t.owner.cookie } }),
      );
      if (response.status !== 200) throw new Error(`GET /api/auth/me: ${response.status}`);
      await response.arrayBuffer();
      const answered = performance.now();
      longestWaitMs = Math.max(longestWaitMs, answered - due);
      // Note: the next one is due 20 ms after this answer; a loop held during the sleep makes it late.
      await Bun.sleep(20);
      due = answered + 20;
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    return { result, longestWaitMs, tookMs: performance.now() - started };
  } finally {
    done = true;
    await probe;
  }
}

/** A logo of `rings` rings dashed every `dash` units: no filter, but slow to draw when fine. */
const dashedLogo = (rings: number, dash: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${`<circle cx="50" cy="50" r="45" fill="none" stroke="#0f766e" stroke-width="9" stroke-dasharray="${dash}"/>`.repeat(rings)}</svg>`;

/** A logo of groups nested `depth` deep, each with its own opacity: each level a canvas in memory. */
const nestedLogo = (depth: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${'<g opacity="0.99">'.repeat(depth)}<rect width="100" height="100" fill="#0f766e"/>${'</g>'.repeat(depth)}</svg>`;

/** A real photo-like JPEG of `width`×`height` (noise, so it does not compress to nothing). */
async function jpeg(width: number, height: number): Promise<Uint8Array> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) % 251;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

describe('POST /api/uploads/{kind}', () => {
  test('a product photo becomes a 480 px card and a 1200 px page WebP, served for a year', async () => {
    const photo = await jpeg(2400, 1600);
    const created = await upload('product', photo, 'image/jpeg');
    expect(created.status).toBe(201);
    expect(created.body.url).toMatch(/^\/api\/uploads\/[0-9a-f]{32}\/page\.webp$/);
    const page = await fetchImage(created.body.sizes.page);
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get('content-type')).toBe('image/webp');
    expect(page.response.headers.get('cache-control')).toContain('immutable');
    expect(page.response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.response.headers.get('content-security-policy')).toContain('sandbox');
    const pageMeta = await sharp(page.bytes).metadata();
    expect([pageMeta.format, pageMeta.width, pageMeta.height]).toEqual(['webp', 1200, 800]);
    const card = await sharp((await fetchImage(created.body.sizes.card)).bytes).metadata();
    expect([card.width, card.height]).toEqual([480, 320]);
    // The original is not kept or served as it came.
    const stored = readdirSync(join(uploadsDir, created.body.id)).sort();
    expect(stored).toEqual(['card.webp', 'page.webp']);
  });

  test('the type comes from the bytes: a PNG sent as image/jpeg is a PNG; text named PNG is refused', async () => {
    const png = await sharp({
      create: { width: 300, height: 200, channels: 4, background: '#0f766e' },
    })
      .png()
      .toBuffer();
    expect((await upload('product', png, 'image/jpeg')).status).toBe(201);
    const fake = await upload('product', 'GIF89a not really an image', 'image/png');
    expect(fake.status).toBe(415);
    expect(fake.body.error.message).toBe(UPLOAD_KINDS.product.invalid);
    const truncated = await upload('product', png.subarray(0, 60), 'image/png');
    expect(truncated.status).toBe(422);
    expect(truncated.body.error.message).toBe(UPLOAD_MESSAGES.unreadable);
  });

  test("each kind's formats and size: an SVG is no product picture, 2 MB caps a logo", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>';
    expect((await upload('product', svg, 'image/svg+xml')).status).toBe(415);
    const big = await jpeg(1800, 1800);
    expect(big.length).toBeGreaterThan(UPLOAD_KINDS.logo.maxBytes);
    const tooBig = await upload('logo', big, 'image/jpeg');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.message).toBe(UPLOAD_KINDS.logo.tooLarge);
    expect((await upload('product', big, 'image/jpeg')).status).toBe(201);
    expect((await upload('product', new Uint8Array(), 'image/png')).status).toBe(422);
  });

  test('an SVG logo is drawn to a 512 px PNG; one with a script or an outside link is refused', async () => {
    const logo =
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><rect width="100" height="50" fill="#db2777"/></svg>';
    const created = await upload('logo', logo, 'image/svg+xml');
    expect(created.status).toBe(201);
    expect(created.body.url).toMatch(/\/logo\.png$/);
    const served = await fetchImage(created.body.url);
    expect(served.response.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(served.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 512, 512]);
    for (const unsafe of [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      '<svg xmlns="http://www.w3.org/2000/svg"><image href="/etc/hostname" width="9" height="9"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(https://x.test/a)"/></svg>',
    ]) {
      const refused = await upload('logo', unsafe, 'image/svg+xml');
      expect(refused.status).toBe(422);
      expect(refused.body.error.message).toBe(UPLOAD_MESSAGES.unsafeSvg);
    }
  });

  test('an SVG cannot make a huge canvas: thin shapes and reference fan-outs are refused, tall ones fitted', async () => {
    const thin = await upload(
      'logo',
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 100000"><rect width="1" height="100000"/></svg>',
      'image/svg+xml',
    );
    expect(thin.status).toBe(422);
    expect(thin.body.error.message).toBe(UPLOAD_MESSAGES.svgShape);
    const uses = Array.from({ length: 40 }, () => '<use href="#a"/>').join('');
    const fanOut = await upload(
      'logo',
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect id="a" width="1" height="1"/>${uses}</svg>`,
      'image/svg+xml',
    );
    expect(fanOut.status).toBe(422);
    // A tall (but logo-shaped) one is fitted by its height.
    const tall = await upload(
      'logo',
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 400"><rect width="100" height="400" fill="#0f766e"/></svg>',
      'image/svg+xml',
    );
    expect(tall.status).toBe(201);
  });

  test('merchants only; other kinds and other bodies are refused', async () => {
    const png = await jpeg(50, 50);
    expect((await upload('product', png, 'image/jpeg', '')).status).toBe(401);
    expect((await upload('avatar', png, 'image/jpeg')).status).toBe(404);
    // A form post (what another site's page could send) never reaches the route.
    expect((await upload('product', 'a=b', 'application/x-www-form-urlencoded')).status).toBe(415);
    // JSON elsewhere keeps its 1 MB cap.
    const json = await app.handle(
      new Request('http://localhost/api/stores', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
        body: 'x',
      }),
    );
    expect(json.status).toBe(413);
  });

  test('unknown and malformed image paths are 404', async () => {
    for (const path of [
      `/api/uploads/${'a'.repeat(32)}/page.webp`,
      '/api/uploads/..%2F..%2Fetc/passwd',
      `/api/uploads/${'a'.repeat(32)}/original.jpg`,
    ])
      expect((await fetchImage(path)).response.status).toBe(404);
  });

  test("a store whose logo is an upload installs with that logo in its icons, on the store's colour", async () => {
    const magenta = await sharp({
      create: { width: 400, height: 400, channels: 3, background: '#ff00ff' },
    })
      .png()
      .toBuffer();
    const logo = await upload('logo', magenta, 'image/png');
    expect(logo.status).toBe(201);
    const owner = apiClient(app, t.owner.cookie);
    const form = storeForm({ logoUrl: logo.body.url, primaryColor: '#0f766e' });
    expect((await owner.post('/api/stores', form)).status).toBe(201);
    const pixel = async (file: string, x: number, y: number) => {
      const response = await app.handle(new Request(`http://localhost/store/${form.slug}/${file}`));
      expect(response.status).toBe(200);
      const { data, info } = await sharp(new Uint8Array(await response.arrayBuffer()))
        .raw()
        .toBuffer({ resolveWithObject: true });
      const at = (y * info.width + x) * info.channels;
      return [data[at], data[at + 1], data[at + 2]];
    };
    expect(await pixel('icon-512.png', 256, 256)).toEqual([255, 0, 255]);
    // The maskable icon: the logo inside the safe zone, the store's colour to the edges.
    expect(await pixel('icon-maskable-512.png', 256, 256)).toEqual([255, 0, 255]);
    expect(await pixel('icon-maskable-512.png', 4, 4)).toEqual([0x0f, 0x76, 0x6e]);
  });
});

describe('uploads cannot take the API down', () => {
  // The logo of the report: 199 bytes whose feMorphology kept the event loop for 16-19 seconds.
  const MORPHOLOGY =
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="f"><feMorphology radius="6"/></filter><rect width="100" height="100" filter="url(#f)"/></svg>';

  test('an SVG with filter effects is refused, the API answering meanwhile', async () => {
    const { result, longestWaitMs } = await waitsDuring(app, () =>
      upload('logo', MORPHOLOGY, 'image/svg+xml'),
    );
    expect(longestWaitMs).toBeLessThan(200);
    expect(result.status).toBe(422);
    expect(result.body.error.message).toBe(UPLOAD_MESSAGES.svgFilter);
    for (const filtered of [
      // A primitive under a namespace prefix, a blur, and the filter shorthand in CSS.
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:s="http://www.w3.org/2000/svg" width="9" height="9"><s:filter id="f"><s:feMorphology radius="9"/></s:filter></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><feGaussianBlur stdDeviation="99"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect width="9" height="9" style="filter: blur(40px)"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><style>rect { filter:drop-shadow(0 0 9px red) }</style><rect width="9" height="9"/></svg>',
    ]) {
      const refused = await upload('logo', filtered, 'image/svg+xml');
      expect(refused.status).toBe(422);
      expect(refused.body.error.message).toBe(UPLOAD_MESSAGES.svgFilter);
    }
  });

  test('an image that is merely slow to draw is stopped at the time limit, the API answering meanwhile', async () => {
    const limited = createTestApp(t.testDb, {
      UPLOADS_DIR: uploadsDir,
      UPLOAD_TIME_LIMIT_MS: '1500',
    });
    // 4 × 70,000 dashes: 7-13 seconds of drawing without the limit, in little memory.
    const { result, longestWaitMs, tookMs } = await waitsDuring(limited, () =>
      upload('logo', dashedLogo(4, 0.002), 'image/svg+xml', t.owner.cookie, limited),
    );
    expect(longestWaitMs).toBeLessThan(200);
    expect(tookMs).toBeGreaterThanOrEqual(1500);
    expect(tookMs).toBeLessThan(1500 + 1500);
    expect(result.status).toBe(422);
    expect(result.body.error.message).toBe(UPLOAD_MESSAGES.tooComplex);
    // A logo with a few dashes is drawn well within it.
    const dashed = await upload('logo', dashedLogo(1, 5), 'image/svg+xml', t.owner.cookie, limited);
    expect(dashed.status).toBe(201);
  });

  test('an image that needs too much memory is stopped at the memory limit, before the time limit', async () => {
    // 600 nested layers of 1024 × 1024 pixels: about 2.5 GB, over the 1 GB default.
    const { result, longestWaitMs, tookMs } = await waitsDuring(app, () =>
      upload('logo', nestedLogo(600), 'image/svg+xml'),
    );
    expect(longestWaitMs).toBeLessThan(200);
    expect(tookMs).toBeLessThan(4500);
    expect(result.status).toBe(422);
    expect(result.body.error.message).toBe(UPLOAD_MESSAGES.tooComplex);
  });

  test('an account may upload a limited number of images an hour (429 with Retry-After)', async () => {
    const limited = createTestApp(t.testDb, {
      UPLOADS_DIR: uploadsDir,
      UPLOADS_PER_HOUR: '2',
    });
    const [busy, other] = [await newMerchant(limited, 'busy'), await newMerchant(limited, 'other')];
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123' } })
      .png()
      .toBuffer();
    for (let i = 0; i < 2; i++)
      expect((await upload('product', png, 'image/png', busy.cookie, limited)).status).toBe(201);
    const refused = await upload('product', png, 'image/png', busy.cookie, limited);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.body.error.message).toStartWith(RATE_LIMIT_MESSAGES.accountUploads);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    // Another account is not held back by it.
    expect((await upload('product', png, 'image/png', other.cookie, limited)).status).toBe(201);
  });
});
