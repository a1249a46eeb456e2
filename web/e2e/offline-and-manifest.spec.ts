// A visited store opens offline with its products and cart (IndexedDB + service worker), and
// each store links its own installable web manifest, which the server answers.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { snap } from './support/screenshots.ts';

test('a visited store reloads offline with its products and cart', async ({ page, context }) => {
  const { store } = readStackInfo();
  await page.goto(`/store/${store.slug}`);
  await expect(page.getByRole('article')).toHaveCount(3);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.getByRole('button', { name: 'Add to Cart: Sticker Pack' }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1 item');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(store.name);
  await expect(page.getByRole('article')).toHaveCount(3);
  await expect(page.getByTestId('cart-count')).toHaveText('1 item');
  await expect(page.getByTestId('cart-total')).toHaveText('4.99 USDC');
  await snap(page, 'offline-1-store');
  // A product page opens offline too, from the cached catalogue, and says the network is gone.
  await page.getByRole('link', { name: 'View Ceramic Mug' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ceramic Mug');
  await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toBeVisible();
  await context.setOffline(false);
});

test('each store links its own web manifest, served by the server', async ({ page }) => {
  const { store } = readStackInfo();
  const base = `/store/${store.slug}/`;
  await page.goto(`/store/${store.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(store.name);
  const link = page.locator('link[rel="manifest"]');
  await expect(link).toHaveAttribute('href', `${base}manifest.webmanifest`);
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute(
    'href',
    `${base}icon-maskable-512.png`,
  );
  const served = await page.evaluate(async () => {
    const href = document.querySelector<HTMLLinkElement>('link[rel="manifest"]')?.href ?? '';
    const response = await fetch(href);
    const manifest = await response.json();
    // Each icon is a real PNG of its size.
    const sizes = await Promise.all(
      manifest.icons.map(async (icon: { src: string }) => {
        const image = await createImageBitmap(await (await fetch(icon.src)).blob());
        return `${image.width}x${image.height}`;
      }),
    );
    return { type: response.headers.get('content-type'), manifest, sizes };
  });
  expect(served.type).toBe('application/manifest+json');
  expect(served.manifest).toMatchObject({
    id: base,
    name: 'Aurora Goods',
    short_name: 'Aurora Goods',
    start_url: base,
    scope: base,
    display: 'standalone',
    theme_color: '#0f766e',
    background_color: '#f8fafc',
  });
  expect(served.manifest.icons.map((icon: { purpose: string }) => icon.purpose)).toEqual([
    'any',
    'any',
    'maskable',
  ]);
  expect(served.sizes).toEqual(['192x192', '512x512', '512x512']);

  // The start URL opens the storefront inside the scope.
  await page.goto(base);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(store.name);
  // Leaving the store (in-app, from the product page's breadcrumb) puts the app's manifest back.
  await page.getByRole('link', { name: 'View Ceramic Mug' }).click();
  await page
    .getByRole('navigation', { name: 'Breadcrumb' })
    .getByRole('link', { name: 'Home' })
    .click();
  await expect(page).toHaveURL('/');
  await expect(link).toHaveAttribute('href', '/manifest.webmanifest');
});

test('Chrome installs the store from its server manifest, under its service worker, offline too', async ({
  baseURL,
}, testInfo) => {
  const { store } = readStackInfo();
  // Note: Playwright's usual contexts are incognito, where Chrome never offers to install; a
  // persistent profile gets Chrome's full installability check.
  const profile = await mkdtemp(join(tmpdir(), 'storefront-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
    baseURL,
  });
  try {
    const page = await context.newPage();
    const manifestUrl = `${baseURL}/store/${store.slug}/manifest.webmanifest`;
    await page.goto(`/store/${store.slug}`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    // The service worker must control the page for Chrome to call it installable.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(store.name);
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const cdp = await context.newCDPSession(page);
    await expect
      .poll(async () => {
        const parsed = await cdp.send('Page.getAppManifest');
        const data = JSON.parse(parsed.data ?? '{}');
        return { url: parsed.url, errors: parsed.errors, name: data.name, scope: data.scope };
      })
      .toEqual({
        url: manifestUrl,
        errors: [],
        name: 'Aurora Goods',
        scope: `/store/${store.slug}/`,
      });
    await expect
      .poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors)
      .toEqual([]);

    // Opened as a page, the manifest is the server's JSON, never the app shell.
    const opened = await page.goto(manifestUrl);
    expect(opened?.headers()['content-type']).toBe('application/manifest+json');

    // The installed store opens offline: the worker serves the shell, the catalogue is cached.
    await context.setOffline(true);
    await page.goto(`/store/${store.slug}/`);
    await expect(page.getByRole('heading', { level: 1, name: store.name })).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(3);
    await context.setOffline(false);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});
